#include "serve/assets.h"

#include <string.h>

const serve_asset *serve_asset_find(const char *name)
{
    for (size_t i = 0; i < serve_nassets; i++)
        if (strcmp(serve_assets[i].name, name) == 0)
            return &serve_assets[i];
    return NULL;
}
