def handler(request_payload, user_identifier, session_token, retry_count=3, timeout=30):
    return compute(
        request_payload, user_identifier, session_token, retry_count, timeout
    ) + len(request_payload)


def compute(a, b, c, d, e):
    return 1
