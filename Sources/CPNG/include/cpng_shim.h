#ifndef IMGCACHE_CPNG_SHIM_H
#define IMGCACHE_CPNG_SHIM_H

#include <stdio.h>
#include <stddef.h>
#include <stdint.h>

/* A libpng reader whose errors come back as return codes: every function that can reach png_error
 * runs under setjmp here, so the longjmp never crosses a Swift frame.
 * Functions returning int give 0 on success and -1 on error (see imgpng_error_message). */
typedef struct imgpng_decoder imgpng_decoder;

typedef struct {
    uint32_t width;
    uint32_t height;
    int bit_depth;
    int color_type;
    int interlaced;
} imgpng_header;

/* What rows look like after the transforms. */
typedef enum {
    /* Always 8-bit RGBA: palette and low-bit gray expanded, tRNS to alpha, 16-bit to 8 (high byte),
     * gray to RGB, opaque alpha added where there is none. */
    IMGPNG_RGBA8 = 0,
    /* Channels as stored, with palette and low-bit gray expanded, tRNS to alpha and 16-bit to 8
     * (libpng's png_set_expand + png_set_strip_16). */
    IMGPNG_EXPANDED8 = 1
} imgpng_layout;

/* The colour chunks read before the image data. */
typedef struct {
    /* The iCCP chunk's data as stored (keyword, NUL, method, zlib stream), kept unparsed so that a
     * malformed profile is the caller's to ignore; NULL when there is none. Valid until destroy. */
    const uint8_t *iccp;
    size_t iccp_length;
    int has_srgb;
    int has_gamma;
    /* gAMA: the encoding exponent, 0.45455 for a 2.2 display. */
    double gamma;
    int has_chromaticities;
    double white_x, white_y, red_x, red_y, green_x, green_y, blue_x, blue_y;
} imgpng_color_chunks;

imgpng_decoder *imgpng_decoder_create(void);
void imgpng_decoder_destroy(imgpng_decoder *decoder);
const char *imgpng_error_message(const imgpng_decoder *decoder);

/* Reads from memory that must stay valid until destroy, or from an open file. */
void imgpng_use_memory(imgpng_decoder *decoder, const uint8_t *bytes, size_t count);
void imgpng_use_file(imgpng_decoder *decoder, FILE *file);

/* Reads the signature and the chunks up to the first IDAT. */
int imgpng_read_info(imgpng_decoder *decoder, imgpng_header *header);
/* After imgpng_read_info: the iCCP, sRGB, gAMA and cHRM chunks. */
int imgpng_get_color_chunks(imgpng_decoder *decoder, imgpng_color_chunks *chunks);
/* Sets up the transforms; *channels and *row_bytes describe the rows that follow, *passes is 7 for
 * an Adam7 image and 1 otherwise. */
int imgpng_set_layout(imgpng_decoder *decoder, imgpng_layout layout, int *channels, size_t *row_bytes,
                      int *passes);
/* The next row. An interlaced image is read as `passes` rounds of `height` calls, each call on the
 * same image row as the round before: libpng writes into it only the pixels of the current pass. */
int imgpng_read_row(imgpng_decoder *decoder, uint8_t *row);
/* Reads the chunks after the image data, checking their CRCs and IEND. */
int imgpng_read_end(imgpng_decoder *decoder);

#endif
