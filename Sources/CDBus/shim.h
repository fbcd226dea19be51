#include <dbus/dbus.h>

// Nothing else: KeychainDBus calls only libdbus's non-variadic functions (the iterator API
// rather than dbus_message_append_args/get_args), and spells the DBUS_TYPE_* character macros,
// which Swift cannot import, as its own constants.
