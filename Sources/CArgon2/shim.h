#include <argon2.h>
#include <sys/random.h>
