from tau2.environment.toolkit import ToolKitBase, ToolType, is_tool


class PhoneTools(ToolKitBase):
    @is_tool(ToolType.READ)
    def get_line(self, number: str) -> dict:
        """Look up a phone line by its number.

        Args:
            number: The phone number, like 555-0100.
        """
        if number not in self.db.lines:
            raise ValueError("Line not found")
        return self.db.lines[number]

    def _line_of(self, number: str):
        if number not in self.db.lines:
            raise ValueError("Line not found")
        return self.db.lines[number]
