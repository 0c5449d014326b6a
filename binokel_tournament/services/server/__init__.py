"""What keeps the hall running: backups, the public cache, addresses and QR codes, limits."""
