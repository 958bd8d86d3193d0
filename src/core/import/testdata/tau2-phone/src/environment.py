from tau2.environment.environment import Environment


class PhoneEnvironment(Environment):
    def sync_tools(self):
        """The phone shows no signal while its line (555-0100) is suspended."""
        line = self.tools._line_of("555-0100")
        if line.suspended:
            self.user_tools.db.device.signal = "none"
