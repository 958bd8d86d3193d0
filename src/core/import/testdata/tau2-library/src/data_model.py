from typing import Dict, List, Literal, Optional

from pydantic import BaseModel, Field

from tau2.environment.db import DB

LoanState = Literal["open", "returned"]


class Address(BaseModel):
    """Where a member lives"""

    street: str = Field(description="Street and number")
    town: str = Field(description="Town")


class Book(BaseModel):
    """A book on the shelves"""

    book_id: str = Field(description="Shelf code")
    title: str = Field(description="Title")
    copies: int = Field(description="Copies on the shelf")
    tags: List[str] = Field(description="Subject tags")


class Member(BaseModel):
    """A library member"""

    card: str = Field(description="Card number")
    name: str = Field(description="Full name")
    address: Address = Field(description="Home address")
    loans: List[str] = Field(description="Loan ids")
    fine: float = Field(description="Fine owed")


class Loan(BaseModel):
    loan_id: str = Field(description="Loan id")
    card: str = Field(description="Member card")
    book_id: str = Field(description="Book lent")
    state: LoanState = Field(description="Open or returned")
    note: Optional[str] = Field(description="Desk note", default=None)


class LibraryDB(DB):
    """The library"""

    books: Dict[str, Book] = Field(description="Books by shelf code")
    members: Dict[str, Member] = Field(description="Members by card")
    loans: Dict[str, Loan] = Field(description="Loans by id")
