"""PyTorch profiler traces: read them, type and stage their kernels, and make exercises."""
