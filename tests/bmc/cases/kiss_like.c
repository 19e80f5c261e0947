/* A hand-written imitation of a KISS-translated two-thread counter:
 * schedule() runs pending threads, each thread statement may raise.
 * Both workers read count before either writes it: count ends at 1,
 * so the error is reachable (it needs schedule nested in a worker). */
extern int __VERIFIER_nondet_int(void);
extern _Bool __VERIFIER_nondet_bool(void);
extern void __VERIFIER_assume(int);
extern void reach_error(void);
int raise_;
int count;
void (*ts[2])(void);
int nts;
void schedule(void);
void worker(void)
{
    int tmp;
    schedule(); if (raise_) return;
    if (__VERIFIER_nondet_bool()) { raise_ = 1; return; }
    tmp = count;
    schedule(); if (raise_) return;
    if (__VERIFIER_nondet_bool()) { raise_ = 1; return; }
    count = tmp + 1;
}
void schedule(void)
{
    while (__VERIFIER_nondet_bool()) {
        if (nts == 0) return;
        int i = __VERIFIER_nondet_int();
        __VERIFIER_assume(i >= 0 && i < nts);
        void (*f)(void) = ts[i];
        ts[i] = ts[nts - 1];
        nts--;
        int saved = raise_;
        f();
        raise_ = saved;
    }
}
int main(void)
{
    raise_ = 0;
    ts[nts++] = worker;
    ts[nts++] = worker;
    schedule();
    if (raise_) return 0;
    if (nts == 0 && count != 2) reach_error();
    return 0;
}
