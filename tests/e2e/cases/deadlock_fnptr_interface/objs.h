/* Object interfaces as a plugin host hands them out: a caller asks for an
 * object by name and gets its functions written into its own interface
 * variable (a static of its unit) by the object's query function, which
 * the host calls through a pointer with the variable's address as void *. */
#include <pthread.h>

struct log_if { int version; void (*Write)(int); void (*Flush)(void); };
struct store_if { int version; void (*Write)(int); };

int use_obj(const char *name, void *ifp);
void objs_init(void);
/* a module's entry point, handed out through an out-parameter */
int query_entry(const char *name, void (**entry)(long));

extern pthread_mutex_t a, b;
extern int count;
