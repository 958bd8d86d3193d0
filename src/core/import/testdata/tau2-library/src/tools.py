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
