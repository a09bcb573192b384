# Stand-in for the builtin_interfaces package: found, nothing more (see ../../../README.md).
set(builtin_interfaces_FOUND TRUE)
