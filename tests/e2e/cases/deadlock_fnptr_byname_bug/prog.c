/* A module hands out its entry points by name through an out-parameter,
 * as rsyslog's queryEtryPt does; the loader asks for each by a literal,
 * and the worker calls the entry point that takes a: a real cycle. */
#include <pthread.h>
#include <stddef.h>
#include <string.h>

typedef int rsRetVal;
typedef rsRetVal (*query_t)(unsigned char *, rsRetVal (**)());

static pthread_mutex_t a = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t b = PTHREAD_MUTEX_INITIALIZER;
static int exits;

static rsRetVal mod_exit(void)
{
    exits++;
    return 0;
}

static rsRetVal after_run(void)
{
    pthread_mutex_lock(&a);
    exits--;
    pthread_mutex_unlock(&a);
    return 0;
}

static rsRetVal queryEtryPt(unsigned char *name, rsRetVal (**pEtryPoint)())
{
    if (name == NULL || pEtryPoint == NULL)
        return -1;
    *pEtryPoint = NULL;
    if (!strcmp((char *)name, "modExit")) {
        *pEtryPoint = mod_exit;
    } else if (strcmp((char *)name, "afterRun") == 0) {
        *pEtryPoint = after_run;
    }
    return *pEtryPoint == NULL ? -2 : 0;
}

static rsRetVal modInit(query_t *pQuery)
{
    *pQuery = queryEtryPt;
    return 0;
}

struct module {
    rsRetVal (*modExit)(void);
    rsRetVal (*afterRun)(void);
    query_t query;
};

static struct module mod;

static void load(struct module *m)
{
    modInit(&m->query);
    m->query((unsigned char *)"modExit", (rsRetVal (**)())&m->modExit);
    m->query((unsigned char *)"afterRun", (rsRetVal (**)())&m->afterRun);
}

static void *worker(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&b);
    mod.afterRun();
    pthread_mutex_unlock(&b);
    return NULL;
}

static void *flusher(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&a);
    pthread_mutex_lock(&b);
    exits = 0;
    pthread_mutex_unlock(&b);
    pthread_mutex_unlock(&a);
    return NULL;
}

int main(void)
{
    pthread_t t1, t2;
    load(&mod);
    pthread_create(&t1, NULL, worker, NULL);
    pthread_create(&t2, NULL, flusher, NULL);
    pthread_join(t1, NULL);
    pthread_join(t2, NULL);
    return 0;
}
