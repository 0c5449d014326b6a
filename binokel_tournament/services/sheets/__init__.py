"""The score sheet: fields, the one writer, drafts, versions, the tables' phones, checks."""
