#include <stdio.h>

static int scale(int value, int numerator, int denominator) {
  return value * numerator / denominator;
}

int main(void) {
  printf("%d %d\n", scale(100, 3, 4),
         scale(200, 5, 8) + scale(300, 7, 16) + scale(400, 9, 32));
  return 0;
}
