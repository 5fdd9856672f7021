"""Take it Higher!: rules engine, score sheet and maximal-score encodings."""
