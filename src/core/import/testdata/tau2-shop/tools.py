from typing import List, Optional

from tau2.domains.shop.data_model import Basket, Line, Payment, Voucher
from tau2.environment.toolkit import ToolKitBase, ToolType, is_tool


class ShopTools(ToolKitBase):
    def _basket(self, basket_id: str):
        if basket_id not in self.db.baskets:
            raise ValueError("No such basket")
        return self.db.baskets[basket_id]

    def _method(self, customer_id: str, method_id: str):
        customer = self.db.customers[customer_id]
        if method_id not in customer.methods:
            raise ValueError("No such method")
        return customer.methods[method_id]

    @is_tool(ToolType.WRITE)
    def void_basket(self, basket_id: str):
        """Void an open basket; what was paid from a voucher goes back on it.

        Args:
            basket_id: The basket.
        """
        basket = self._basket(basket_id)
        if basket.state != "open":
            raise ValueError("Only an open basket can be voided")
        refunds = []
        for payment in basket.payments:
            refunds.append(Payment(kind="refund", amount=payment.amount, method=payment.method))
            method = self._method(basket.customer_id, payment.method)
            if isinstance(method, Voucher):
                method.balance += payment.amount
                method.balance = round(method.balance, 2)
        basket.state = "void"
        basket.payments.extend(refunds)
        return basket

    @is_tool(ToolType.WRITE)
    def swap_lines(self, basket_id: str, skus: List[str], new_skus: List[str]):
        """Swap lines for other catalogue items and settle the difference by card.

        Args:
            basket_id: The basket.
            skus: The lines to swap, by item; an item may repeat.
            new_skus: What each becomes, in the same order.
        """
        basket = self._basket(basket_id)
        if len(skus) != len(new_skus):
            raise ValueError("The lists differ in length")
        total = 0
        for sku, new_sku in zip(skus, new_skus):
            line = next((line for line in basket.lines if line.sku == sku), None)
            if line is None:
                raise ValueError("No such line")
            if new_sku not in self.db.catalog:
                raise ValueError("No such item")
            total += self.db.catalog[new_sku].price - line.price
        basket.payments.append(
            Payment(kind="payment" if total > 0 else "refund", amount=abs(round(total, 2)), method="card_1")
        )
        for sku, new_sku in zip(skus, new_skus):
            line = next((line for line in basket.lines if line.sku == sku), None)
            line.sku = new_sku
            line.price = self.db.catalog[new_sku].price
        basket.note = "swapped"
        return basket

    @is_tool(ToolType.WRITE)
    def swap_then_charge(self, basket_id: str, sku: str, new_sku: str):
        """Swap one line, then charge what the old line cost.

        Args:
            basket_id: The basket.
            sku: The line to swap.
            new_sku: What it becomes.
        """
        basket = self._basket(basket_id)
        line = next((line for line in basket.lines if line.sku == sku), None)
        old = line.price
        line.sku = new_sku
        basket.payments.append(Payment(kind="payment", amount=old, method="card_1"))
        return basket

    @is_tool(ToolType.WRITE)
    def swap_to_voucher(self, basket_id: str, sku: str, new_sku: str):
        """Swap one line and put what the old line cost on the voucher.

        Args:
            basket_id: The basket.
            sku: The line to swap.
            new_sku: What it becomes.
        """
        basket = self._basket(basket_id)
        voucher = self._method(basket.customer_id, "v_1")
        line = next((line for line in basket.lines if line.sku == sku), None)
        old = line.price
        line.price = self.db.catalog[new_sku].price
        voucher.balance += old
        return basket

    @is_tool(ToolType.WRITE)
    def pay_again(self, basket_id: str, method_id: str):
        """Pay the first payment's amount again from another method.

        Args:
            basket_id: The basket.
            method_id: The method to pay from.
        """
        basket = self._basket(basket_id)
        method = self._method(basket.customer_id, method_id)
        amount = basket.payments[0].amount
        basket.payments.append(Payment(kind="payment", amount=amount, method=method_id))
        if isinstance(method, Voucher):
            method.balance -= amount
        return basket

    @is_tool(ToolType.WRITE)
    def pay_per_payment(self, basket_id: str, method_id: str):
        """Add a payment, then take one unit per payment from a voucher.

        Args:
            basket_id: The basket.
            method_id: The method to pay from.
        """
        basket = self._basket(basket_id)
        method = self._method(basket.customer_id, method_id)
        count = len(basket.payments)
        basket.payments.append(Payment(kind="payment", amount=1.0, method=method_id))
        method.balance -= count
        return basket

    @is_tool(ToolType.WRITE)
    def pay_then_find(self, basket_id: str, method_id: str):
        """Log a payment, then look the method up: a method that is not there fails the call
        after the payment was logged, and Python keeps the log.

        Args:
            basket_id: The basket.
            method_id: The method to pay from.
        """
        basket = self._basket(basket_id)
        basket.payments.append(Payment(kind="payment", amount=1.0, method=method_id))
        method = self._method(basket.customer_id, method_id)
        method.balance -= 1.0
        return basket

    @is_tool(ToolType.WRITE)
    def restock(self, sku: str):
        """Fill a shelf up to ten.

        Args:
            sku: The item.
        """
        item = self.db.catalog[sku]
        while item.stock < 10:
            item.stock += 1
        return item

    @is_tool(ToolType.WRITE)
    def open_basket(self, customer_id: str, sku: str, note: Optional[str] = None) -> Basket:
        """Open a new basket for a customer, with one item of the catalogue in it.

        Args:
            customer_id: Whose basket.
            sku: The item to put in it.
            note: Why it was opened, if the customer said.
        """
        if customer_id not in self.db.customers:
            raise ValueError("No such customer")
        if sku not in self.db.catalog:
            raise ValueError("No such item")
        item = self.db.catalog[sku]
        basket_id = f"b{len(self.db.baskets) + 1}"
        basket = Basket(
            basket_id=basket_id,
            customer_id=customer_id,
            state="open",
            lines=[Line(sku=sku, price=item.price)],
            payments=[],
            note=note,
        )
        self.db.baskets[basket_id] = basket
        item.stock -= 1
        return basket
