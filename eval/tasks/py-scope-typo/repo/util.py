def chunks(xs, n):
    # splits xs in to lists of n items (the last may be shorter)
    return [xs[i:i+n] for i in range(0, len(xs), n)]
