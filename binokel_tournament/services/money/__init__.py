"""The charity evening: fees and donations, prizes, sub-rankings, cups, statistics."""
