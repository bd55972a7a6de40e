// Reduction kernel template (written below).
