def f(alpha_value, beta_value, gamma_value, delta_value, epsilon_value, zeta_value, eta):
    return alpha_value
