# cmake --install into a temporary DESTDIR and cpack -G DEB: every file where the FHS says, the
# desktop entry and metainfo valid. It installs the built binaries, so it depends on all three.
cachescope_add_test(NAME tst_install SOURCES tst_install.cpp LIBRARIES Qt6::Core LABELS integration install TIMEOUT 600)
add_dependencies(tst_install cachescope cachescope-cli cachescope-sim)
target_compile_definitions(tst_install PRIVATE $<$<BOOL:${CACHESCOPE_SANITIZE}>:CACHESCOPE_TEST_SANITIZED>)
