"""The PyTorch parity generator: golden conformance cases computed by real PyTorch."""
