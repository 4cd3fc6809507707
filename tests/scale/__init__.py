"""Scale: labels on other devices (GPU libraries, DLPack, the array API) and tables that add up."""
