/* fio (arch/arch.h: C11 atomics behind macros named atomic_load_acquire etc.): "unsupported construct: atomic operation 'atomic_load_acquire'" (the op is taken from the macro's name) */
#include <stdatomic.h>

#define atomic_load_acquire(p) atomic_load_explicit((_Atomic __typeof__(*(p)) *)(p), memory_order_acquire)
#define atomic_store_release(p, v) atomic_store_explicit((_Atomic __typeof__(*(p)) *)(p), (v), memory_order_release)
#define atomic_add(p, v) atomic_fetch_add((_Atomic __typeof__(*(p)) *)(p), v)
#define load_acquire(p) atomic_load_explicit((_Atomic __typeof__(*(p)) *)(p), memory_order_acquire)

struct seq {
    unsigned int sequence;
};

unsigned int begin(struct seq *s)
{
    unsigned int v = atomic_load_acquire(&s->sequence);
    atomic_store_release(&s->sequence, v + 1);
    atomic_add(&s->sequence, 2);
    return v + load_acquire(&s->sequence);
}
