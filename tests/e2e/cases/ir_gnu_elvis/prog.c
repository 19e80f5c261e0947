/* fio (init.c, ioengines.c, verify.c: `name ?: "fio"`): "unsupported construct: expression starting with 'name'" */
struct opts {
    const char *name;
};

const char *job_name(struct opts *o)
{
    const char *name = o->name ?: "fio";
    return name;
}
