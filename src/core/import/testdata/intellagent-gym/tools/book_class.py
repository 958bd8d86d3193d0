from typing import Any, Dict
from util import update_df


class BookClass():
    @staticmethod
    def invoke(data: Dict[str, Any], badge: str, class_id: str) -> str:
        if badge not in data['members']:
            return "Error: no such badge"
        update_df(data['bookings'], {'badge': badge}, 'badge')
        return "booked"

    @staticmethod
    def get_info() -> Dict[str, Any]:
        return {
            "type": "function",
            "function": {
                "name": "book_class",
                "description": (
                    "Book a class for a member. "
                    "Ask for confirmation first."
                ),
                "parameters": {
                    "type": "object",
                    "properties": {
                        "badge": {"type": "string", "description": "The badge number."},
                        "class_id": {"type": "string", "enum": ["yoga", "spin"]},
                    },
                    "required": ["badge", "class_id"],
                },
            },
        }
