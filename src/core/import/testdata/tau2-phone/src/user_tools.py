from tau2.environment.toolkit import ToolKitBase, ToolType, is_tool


class PhoneUserTools(ToolKitBase):
    """The customer's own phone."""

    @is_tool(ToolType.READ)
    def check_status_bar(self) -> str:
        """Look at the phone's status bar."""
        return self.db.device.signal

    @is_tool(ToolType.WRITE)
    def toggle_data(self) -> str:
        """Turn mobile data on if it is off, or off if it is on."""
        self.db.device.data_on = not self.db.device.data_on
        return "ok"

    @is_tool(ToolType.WRITE)
    def set_airplane_mode(self, on: bool) -> str:
        """Turn airplane mode on or off.

        Args:
            on: True to turn airplane mode on.
        """
        self.db.device.airplane = on
        return "ok"

    @is_tool(ToolType.WRITE)
    def reboot(self) -> str:
        """Restart the phone."""
        for _ in range(2):
            self.db.device.signal = "good"
        return "restarted"

    def turn_data_off(self):
        """Set the phone up with mobile data off."""
        self.db.device.data_on = False

    def set_signal(self, level: str = "none"):
        self.db.device.signal = level

    def scramble_settings(self):
        self.db.device.data_on = self.random_choice()

    def assert_mobile_data_status(self, expected_status: bool) -> bool:
        return self.db.device.data_on == expected_status

    def assert_airplane_mode(self) -> bool:
        return self.db.device.airplane

    def assert_signal(self, expected: str) -> bool:
        return not self.db.device.signal != expected

    def assert_internet_speed(self, expected_desc: str) -> bool:
        return self.run_speed_test() == expected_desc
