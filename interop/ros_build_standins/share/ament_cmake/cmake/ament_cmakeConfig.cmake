# Stand-in for ament_cmake (see ../../../README.md): the entry points CMakeLists.txt uses.
set(ament_cmake_FOUND TRUE)

macro(ament_export_dependencies)
endmacro()

# As ament_package does: the manifest goes to share/<package>.
macro(ament_package)
  install(FILES ${CMAKE_CURRENT_SOURCE_DIR}/package.xml DESTINATION share/${PROJECT_NAME})
endmacro()
