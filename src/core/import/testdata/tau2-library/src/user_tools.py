from tau2.environment.toolkit import ToolKitBase, ToolType, is_tool


class MemberDevice(ToolKitBase):
    @is_tool(ToolType.WRITE)
    def scan_card(self, card: str) -> str:
        """Scan the card at the self-service kiosk.

        Args:
            card: The card number.
        """
        return card
