// LeakSanitizer suppressions for third-party libraries Backplane loads at run time.
//
// NVRTC keeps compiler state in heap blocks it never frees (a process-lifetime cache), which
// LeakSanitizer reports at exit. Binaries that load NVRTC link this library; the sanitizer runtime
// calls this hook when it starts. Without a sanitizer the function is simply never called.
// libcublas and libcublasLt each allocate their statically linked libstdc++'s exception
// emergency pool (72704 bytes) at load and never free it (cublas_symbols_test loads them).
extern "C" const char* __lsan_default_suppressions() {
  return "leak:libnvrtc.so\n"
         "leak:libnvrtc-builtins.so\n"
         "leak:libcublas.so\n"
         "leak:libcublasLt.so\n";
}
