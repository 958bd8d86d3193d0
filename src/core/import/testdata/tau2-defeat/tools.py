import json
import logging
from typing import List

from tau2.domains.parcel.data_model import Parcel
from tau2.environment.toolkit import ToolKitBase, ToolType, is_tool

logger = logging.getLogger(__name__)


class ParcelTools(ToolKitBase):
    """Tool bodies written the many ways real domain code is written. Two the reader can
    follow (controls); every other one uses something it cannot, and must come out marked."""

    def _parcel(self, parcel_id: str) -> Parcel:
        if parcel_id not in self.db.parcels:
            raise ValueError("No such parcel")
        return self.db.parcels[parcel_id]

    @is_tool(ToolType.WRITE)
    def hold_parcel(self, parcel_id: str) -> Parcel:
        """Hold a parcel at the depot (a control: a plain field set).

        Args:
            parcel_id: The tracking code.
        """
        parcel = self._parcel(parcel_id)
        if parcel.state != "depot":
            raise ValueError("Only a parcel at the depot can be held")
        parcel.state = "held"
        return parcel

    @is_tool(ToolType.READ)
    def get_parcel(self, parcel_id: str) -> Parcel:
        """Look a parcel up (a control: a plain look-up).

        Args:
            parcel_id: The tracking code.
        """
        parcel = self._parcel(parcel_id)
        return parcel

    @is_tool(ToolType.WRITE)
    def redirect_parcel(self, parcel_id: str, town: str) -> str:
        """Send a parcel to another town; errors come back as text, not raised.

        Args:
            parcel_id: The tracking code.
            town: The new town.
        """
        if parcel_id not in self.db.parcels:
            return "Error: no such parcel"
        parcel = self.db.parcels[parcel_id]
        if parcel.state != "depot":
            return "Error: the parcel has left the depot"
        parcel.town = town
        return "Redirected"

    @is_tool(ToolType.WRITE)
    def add_note(self, parcel_id: str, note: str) -> Parcel:
        """Add a note, logged.

        Args:
            parcel_id: The tracking code.
            note: The note.
        """
        parcel = self._parcel(parcel_id)
        logger.debug("adding a note to %s", parcel_id)
        parcel.notes.append(f"{parcel_id}: {note}")
        return parcel

    @is_tool(ToolType.WRITE)
    def mark_delivered(self, parcel_id: str) -> Parcel:
        """Mark a parcel delivered through the model's own method.

        Args:
            parcel_id: The tracking code.
        """
        parcel = self._parcel(parcel_id)
        parcel.deliver()
        return parcel

    @is_tool(ToolType.WRITE)
    def credit_customer(self, customer_id: str, amounts: List[float]) -> float:
        """Credit the largest of some amounts.

        Args:
            customer_id: The customer.
            amounts: Candidate amounts.
        """
        customer = self.db.customers[customer_id]
        customer.credit = customer.credit + max(amounts)
        return customer.credit

    @is_tool(ToolType.WRITE)
    def merge_notes(self, parcel_id: str, extra: dict) -> Parcel:
        """Merge notes from a dict or a list.

        Args:
            parcel_id: The tracking code.
            extra: More notes.
        """
        parcel = self._parcel(parcel_id)
        if isinstance(extra, dict):
            for key, value in extra.items():
                parcel.notes.append(key)
        return parcel

    @is_tool(ToolType.WRITE)
    def drop_parcel(self, parcel_id: str) -> str:
        """Remove a parcel from the records.

        Args:
            parcel_id: The tracking code.
        """
        del self.db.parcels[parcel_id]
        return "Dropped"

    @is_tool(ToolType.WRITE)
    def reweigh(self, parcel_id: str, weight: float) -> Parcel:
        """Reweigh a parcel, then hold it through another public tool.

        Args:
            parcel_id: The tracking code.
            weight: Kilograms.
        """
        parcel = self._parcel(parcel_id)
        parcel.weight = weight
        self.hold_parcel(parcel_id)
        return parcel

    @is_tool(ToolType.WRITE)
    def touch_parcel(self, parcel_id: str) -> str:
        """Sets an attribute by name.

        Args:
            parcel_id: The tracking code.
        """
        parcel = self._parcel(parcel_id)
        setattr(parcel, "state", "in_transit")
        return "ok"

    @is_tool(ToolType.READ)
    def list_towns(self) -> str:
        """Every destination town, as JSON."""
        towns = sorted({parcel.town for parcel in self.db.parcels.values()})
        return json.dumps(towns)

    @is_tool(ToolType.READ)
    def find_heaviest(self, owner: str) -> str:
        """The heaviest parcel of a customer, found in a loop.

        Args:
            owner: The customer id.
        """
        best = None
        for parcel in self.db.parcels.values():
            if parcel.owner == owner:
                if best is None or parcel.weight > best.weight:
                    best = parcel
        if best is None:
            return "none"
        return best.parcel_id

    @is_tool(ToolType.READ)
    def quote(self, weight: float) -> str:
        """A price for a weight.

        Args:
            weight: Kilograms.
        """
        return f"{round(weight * 1.5, 2)} pounds"
