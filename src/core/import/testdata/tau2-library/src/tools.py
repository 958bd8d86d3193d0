"""Desk tools."""

from tau2.environment.toolkit import ToolKitBase, ToolType, is_tool


class LibraryTools(ToolKitBase):
    """Tools of the desk."""

    def _member(self, card: str):
        """Find a member.

        Raises:
            ValueError: unknown card.
        """
        if card not in self.db.members:
            raise ValueError("No such member")
        return self.db.members[card]

    def _loan(self, loan_id: str):
        """Find a loan."""
        if loan_id not in self.db.loans:
            raise ValueError("No such loan")
        return self.db.loans[loan_id]

    @is_tool(ToolType.WRITE)
    def return_book(self, loan_id: str, note: str) -> dict:
        """Take a book back.

        Args:
            loan_id: The loan, such as 'L0'.
            note: What the desk noticed.
        """
        loan = self._loan(loan_id)
        if loan.state != "open":
            raise ValueError("Loan already returned")
        loan.state = "returned"
        loan.note = note
        return loan

    @is_tool(ToolType.WRITE)
    def pay_fine(self, card: str, amount: float) -> dict:
        """Pay part of a fine.

        Args:
            card: The member's card number.
            amount: How much is paid.
        """
        member = self._member(card)
        if amount <= 0 or amount > member.fine:
            raise ValueError("Pay between 0 and the fine")
        member.fine -= amount
        member.loans.append(card)
        return member

    @is_tool(ToolType.READ)
    def get_member(self, card: str) -> dict:
        """Look up a member by card number.

        Args:
            card: The card number, such as 'C-100'.
        """
        return self._member(card)

    @is_tool(ToolType.WRITE)
    def lend_book(
        self,
        card: str,
        book_id: str,
        days: int = 14,
        format: str = "paper",
    ) -> dict:
        """Lend a book to a member.

        Args:
            card: The member's card number.
            book_id: The shelf code of the book,
                as printed on its spine.
            days: How many days the loan runs.
            format: Paper or ebook.
        """
        if format not in ("paper", "ebook"):
            raise ValueError("Unknown format")
        member = self._member(card)
        if len(member.loans) >= 3: raise ValueError("Too many loans")
        book = self.db.books[book_id]
        if book.copies < 1:
            raise ValueError(f"No copy of {book_id} left")
        book.copies -= 1
        return {"ok": True}

    @is_tool(ToolType.GENERIC)
    def transfer_to_librarian(self, summary: str) -> str:
        """Hand the member to a librarian.

        Args:
            summary: What the member needs.
        """
        return "Transferred"

    def loan_open(self, loan_id: str = "L7") -> bool:
        """Whether a loan is still open (for env_assertions)."""
        loan = self._loan(loan_id)
        return loan.state == "open"
