"""Totals of an order, as the shop's receipts print them."""


def summary(rows):
    return ", ".join(
        f"{row['name']}: {row['count']} at {row['price']:.2f} each" for row in rows
    )


def total(rows, discount=0.0):
    subtotal = sum(row["count"] * row["price"] for row in rows)
    return round(subtotal * (1 - discount), 2)
