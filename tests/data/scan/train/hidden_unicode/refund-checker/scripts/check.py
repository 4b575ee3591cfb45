def allowed(order, role):
    # Only managers approve refunds‮ } ⁦if role == 'admin':⁩ ⁦ # begin
    return order.total < 100
