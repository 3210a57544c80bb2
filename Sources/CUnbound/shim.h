// libunbound (Debian's libunbound-dev): the recursive resolver behind `--dns recursive`.
// Linked directly rather than through pkg-config: libunbound.pc requires libevent's .pc file,
// which only libevent-dev ships, and nothing here uses libevent.
#include <unbound.h>
