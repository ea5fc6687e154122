/* surflet's C API from C: evaluate a noise, a config's stack or graph, or an
 * expression at points read from standard input, like `surflet sample
 * --gradient`, and print "value,d1,...,dD" per point.
 *
 *   sample [--f32] noise NAME SEED DIMS
 *   sample [--f32] config FILE DIMS
 *   sample [--f32] expr EXPRESSION DIMS
 *
 * Input: DIMS numbers per line, separated by commas or blanks. Each output
 * number is the shortest decimal that reads back as the same double (an f32
 * result widened to double), so the values compare exactly with those of
 * `surflet sample`. CI runs it against the command line (.ci/c).
 *
 * Build (docs/c-api.md):
 *   cc -std=c99 sample.c $(pkg-config --cflags --libs surflet) -o sample
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <surflet.h>

/* Prints the shortest %.Ng form of v that reads back as v. */
static void print_shortest(double v) {
    char buf[40];
    for (int digits = 1; digits <= 17; digits++) {
        snprintf(buf, sizeof buf, "%.*g", digits, v);
        if (strtod(buf, NULL) == v || v != v) {
            break;
        }
    }
    fputs(buf, stdout);
}

/* The whole of a file, NUL-terminated; NULL on failure. */
static char *read_file(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) {
        return NULL;
    }
    size_t cap = 4096, len = 0;
    char *text = malloc(cap);
    size_t got;
    while (text && (got = fread(text + len, 1, cap - len - 1, f)) > 0) {
        len += got;
        if (cap - len - 1 == 0) {
            char *bigger = realloc(text, cap * 2);
            if (!bigger) {
                free(text);
                text = NULL;
                break;
            }
            text = bigger;
            cap *= 2;
        }
    }
    fclose(f);
    if (text) {
        text[len] = '\0';
    }
    return text;
}

static int usage(void) {
    fputs("usage: sample [--f32] noise NAME SEED DIMS\n"
          "       sample [--f32] config FILE DIMS\n"
          "       sample [--f32] expr EXPRESSION DIMS\n",
          stderr);
    return 2;
}

int main(int argc, char **argv) {
    int single = argc > 1 && strcmp(argv[1], "--f32") == 0;
    argv += single;
    argc -= single;
    if (argc < 4) {
        return usage();
    }
    const char *how = argv[1];
    unsigned dims = (unsigned)strtoul(argv[argc - 1], NULL, 10);

    SurfletField *field = NULL;
    SurfletStatus status;
    if (strcmp(how, "noise") == 0 && argc == 5) {
        errno = 0;
        unsigned long long seed = strtoull(argv[3], NULL, 10);
        if (errno) {
            fprintf(stderr, "sample: bad seed %s\n", argv[3]);
            return 2;
        }
        status = surflet_noise_new(argv[2], (uint64_t)seed, dims, &field);
    } else if (strcmp(how, "config") == 0 && argc == 4) {
        char *text = read_file(argv[2]);
        if (!text) {
            fprintf(stderr, "sample: cannot read %s\n", argv[2]);
            return 1;
        }
        status = surflet_config_new(text, dims, &field);
        free(text);
    } else if (strcmp(how, "expr") == 0 && argc == 4) {
        status = surflet_expr_new(argv[2], dims, &field);
    } else {
        return usage();
    }
    if (status != SURFLET_STATUS_OK) {
        /* The code says what kind of failure, the message which. */
        fprintf(stderr, "sample: error %d: %s\n", (int)status, surflet_last_error());
        return 2;
    }

    double point[4];
    double value, gradient[4];
    float point32[4], value32, gradient32[4];
    char line[1024];
    int result = 0;
    while (fgets(line, sizeof line, stdin)) {
        unsigned n = 0;
        char *p = line, *end;
        while (n < dims) {
            while (*p == ',' || *p == ' ' || *p == '\t') {
                p++;
            }
            /* strtof reads f32 input correctly rounded, as sample --f32 does. */
            if (single) {
                point32[n] = strtof(p, &end);
            } else {
                point[n] = strtod(p, &end);
            }
            if (end == p) {
                break;
            }
            p = end;
            n++;
        }
        if (n == 0) {
            continue; /* a blank line */
        }
        if (n != dims) {
            fprintf(stderr, "sample: expected %u numbers per line: %s", dims, line);
            result = 1;
            break;
        }
        if (single) {
            status = surflet_sample_f32(field, point32, 1, &value32, gradient32);
            value = value32;
            for (unsigned a = 0; a < dims; a++) {
                gradient[a] = gradient32[a];
            }
        } else {
            status = surflet_sample_f64(field, point, 1, &value, gradient);
        }
        if (status != SURFLET_STATUS_OK) {
            fprintf(stderr, "sample: error %d: %s\n", (int)status, surflet_last_error());
            result = 1;
            break;
        }
        print_shortest(value);
        for (unsigned a = 0; a < dims; a++) {
            putchar(',');
            print_shortest(gradient[a]);
        }
        putchar('\n');
    }
    surflet_field_free(field);
    return result;
}
