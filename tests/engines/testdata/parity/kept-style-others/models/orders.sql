select
    id,
    amount
from orders
where amount > 0
