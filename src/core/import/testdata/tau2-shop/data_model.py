from typing import Dict, List, Literal, Optional, Union

from pydantic import BaseModel, Field

from tau2.environment.db import DB


class Card(BaseModel):
    source: Literal["card"] = Field(description="Paid by card")
    id: str = Field(description="Method id")


class Voucher(BaseModel):
    source: Literal["voucher"] = Field(description="Paid from a voucher")
    id: str = Field(description="Method id")
    balance: float = Field(description="What is left on it")


class Line(BaseModel):
    sku: str = Field(description="Catalogue item")
    price: float = Field(description="Price paid")


class Payment(BaseModel):
    kind: str = Field(description="payment or refund")
    amount: float = Field(description="How much")
    method: str = Field(description="Method id")


class Customer(BaseModel):
    customer_id: str = Field(description="Customer id")
    methods: Dict[str, Union[Card, Voucher]] = Field(description="Payment methods by id")


class Basket(BaseModel):
    basket_id: str = Field(description="Basket id")
    customer_id: str = Field(description="Whose basket")
    state: str = Field(description="open, void or paid")
    lines: List[Line] = Field(description="What is in it")
    payments: List[Payment] = Field(description="Money in and out")
    note: Optional[str] = Field(description="Last change", default=None)


class Item(BaseModel):
    sku: str = Field(description="Catalogue item")
    price: float = Field(description="Current price")
    stock: int = Field(description="Items on the shelf")


class ShopDB(DB):
    customers: Dict[str, Customer] = Field(description="Customers by id")
    baskets: Dict[str, Basket] = Field(description="Baskets by id")
    catalog: Dict[str, Item] = Field(description="Catalogue by sku")
