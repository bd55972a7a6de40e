/* A shared library without the plugin entry symbol: loading it must fail clearly. */
int bp_test_not_a_plugin(void) { return 42; }
