from typing import Dict, List, Literal

from pydantic import BaseModel, Field

from tau2.environment.db import DB

ParcelState = Literal["depot", "in_transit", "delivered", "held"]


class Parcel(BaseModel):
    parcel_id: str = Field(description="Tracking code")
    owner: str = Field(description="Customer id")
    state: ParcelState = Field(description="Where it is")
    weight: float = Field(description="Kilograms")
    town: str = Field(description="Destination town")
    notes: List[str] = Field(description="Desk notes")


class Customer(BaseModel):
    customer_id: str = Field(description="Customer id")
    name: str = Field(description="Full name")
    credit: float = Field(description="Credit on account")


class ParcelDB(DB):
    parcels: Dict[str, Parcel] = Field(description="Parcels by code")
    customers: Dict[str, Customer] = Field(description="Customers by id")
