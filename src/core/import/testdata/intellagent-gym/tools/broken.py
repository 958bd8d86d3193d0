class Broken():
    @staticmethod
    def get_info():
        return build_schema("broken")
