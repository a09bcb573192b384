# Stand-in for the std_msgs package: found, nothing more (see ../../../README.md).
set(std_msgs_FOUND TRUE)
