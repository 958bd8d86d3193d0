from typing import Any, Dict


class GetMember():
    @staticmethod
    def invoke(data: Dict[str, Any], badge: str) -> str:
        return str(data['members'][badge])

    @staticmethod
    def get_info() -> Dict[str, Any]:
        return {"type": "function", "function": {"name": "get_member", "description": "Look up a member.",
                "parameters": {"type": "object", "properties": {"badge": {"type": "string"}}, "required": ["badge"]}}}
