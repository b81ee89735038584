transform = lambda value, scale: normalise_measurement(value) * scale + offset_for(
    value, scale
)
register(
    "sum",
    key=lambda record: record.quantity_in_stock * record.unit_price_in_cents_for_region,
)
