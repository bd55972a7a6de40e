/* Every public header compiled alone (the test's dependencies), and the C and C++ compilers
 * agreeing on the layout of every struct of the C ABI. */
#include <stddef.h>
#include <stdio.h>

const size_t* bp_layout_as_c(size_t* n);
const size_t* bp_layout_as_cxx(size_t* n);

int main(void) {
  size_t nc = 0, ncxx = 0;
  const size_t* c = bp_layout_as_c(&nc);
  const size_t* cxx = bp_layout_as_cxx(&ncxx);
  if (nc != ncxx) {
    fprintf(stderr, "layout lists differ in length: %zu (C) vs %zu (C++)\n", nc, ncxx);
    return 1;
  }
  for (size_t i = 0; i < nc; ++i) {
    if (c[i] != cxx[i]) {
      fprintf(stderr, "layout entry %zu differs: %zu (C) vs %zu (C++)\n", i, c[i], cxx[i]);
      return 1;
    }
  }
  printf("%zu layout entries agree between C and C++\n", nc);
  return 0;
}
