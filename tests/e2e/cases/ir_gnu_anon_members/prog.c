/* Members of anonymous structs and unions at any depth, and two anonymous unions in one struct. */
struct clat { int a; union { int clat_prio; long lp; }; struct { int b; union { int c; int d; }; }; };
struct rus { long x; union { long ru_maxrss; long __m; }; union { long c; long __c; }; };
int f(struct clat *p, struct rus *r) { p->clat_prio = 1; p->c = 2; r->c = 3; return p->d + (int)r->ru_maxrss; }
