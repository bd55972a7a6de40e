// LeakSanitizer suppressions for third-party libraries Backplane loads at run time.
//
// NVRTC keeps compiler state in heap blocks it never frees (a process-lifetime cache), which
// LeakSanitizer reports at exit. Binaries that load NVRTC link this library; the sanitizer runtime
// calls this hook when it starts. Without a sanitizer the function is simply never called.
extern "C" const char* __lsan_default_suppressions() {
  return "leak:libnvrtc.so\n"
         "leak:libnvrtc-builtins.so\n";
}
