#include "cpng_shim.h"

#include <png.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

struct imgpng_decoder {
    png_structp png;
    png_infop info;
    char message[256];
    const uint8_t *bytes;
    size_t count;
    size_t position;
};

static void imgpng_error(png_structp png, png_const_charp text) {
    char *message = (char *)png_get_error_ptr(png);
    snprintf(message, 256, "%s", text);
    png_longjmp(png, 1);
}

static void imgpng_warning(png_structp png, png_const_charp text) {
    (void)png;
    (void)text;
}

static void imgpng_read_memory(png_structp png, png_bytep data, size_t length) {
    imgpng_decoder *decoder = (imgpng_decoder *)png_get_io_ptr(png);
    if (length > decoder->count - decoder->position) png_error(png, "unexpected end of data");
    memcpy(data, decoder->bytes + decoder->position, length);
    decoder->position += length;
}

static void imgpng_read_file(png_structp png, png_bytep data, size_t length) {
    FILE *file = (FILE *)png_get_io_ptr(png);
    if (fread(data, 1, length, file) != length) png_error(png, "unexpected end of data");
}

imgpng_decoder *imgpng_decoder_create(void) {
    imgpng_decoder *decoder = calloc(1, sizeof *decoder);
    if (!decoder) return NULL;
    decoder->png = png_create_read_struct(PNG_LIBPNG_VER_STRING, decoder->message, imgpng_error, imgpng_warning);
    if (!decoder->png) {
        free(decoder);
        return NULL;
    }
    if (setjmp(png_jmpbuf(decoder->png))) {
        png_destroy_read_struct(&decoder->png, NULL, NULL);
        free(decoder);
        return NULL;
    }
    decoder->info = png_create_info_struct(decoder->png);
    if (!decoder->info) {
        png_destroy_read_struct(&decoder->png, NULL, NULL);
        free(decoder);
        return NULL;
    }
    /* Text chunks are never used: skip them rather than inflate them (compressed-chunk bombs). */
    static const png_byte ignored[] = {'t', 'E', 'X', 't', 0, 'z', 'T', 'X', 't', 0, 'i', 'T', 'X', 't', 0};
    png_set_keep_unknown_chunks(decoder->png, PNG_HANDLE_CHUNK_NEVER, ignored, 3);
    /* iCCP is kept as stored, for the caller to inflate (bounded) and judge: libpng's own checks
     * would make a malformed profile an error, and a profile that cannot be used is ignored. */
    static const png_byte kept[] = {'i', 'C', 'C', 'P', 0};
    png_set_keep_unknown_chunks(decoder->png, PNG_HANDLE_CHUNK_ALWAYS, kept, 1);
    png_set_chunk_malloc_max(decoder->png, 8 * 1024 * 1024);
    /* Pixel limits are checked by the caller against its own configuration. */
    png_set_user_limits(decoder->png, 0x7fffffff, 0x7fffffff);
    return decoder;
}

void imgpng_decoder_destroy(imgpng_decoder *decoder) {
    if (!decoder) return;
    png_destroy_read_struct(&decoder->png, &decoder->info, NULL);
    free(decoder);
}

const char *imgpng_error_message(const imgpng_decoder *decoder) { return decoder->message; }

void imgpng_use_memory(imgpng_decoder *decoder, const uint8_t *bytes, size_t count) {
    decoder->bytes = bytes;
    decoder->count = count;
    decoder->position = 0;
    png_set_read_fn(decoder->png, decoder, imgpng_read_memory);
}

void imgpng_use_file(imgpng_decoder *decoder, FILE *file) {
    png_set_read_fn(decoder->png, file, imgpng_read_file);
}

int imgpng_read_info(imgpng_decoder *decoder, imgpng_header *header) {
    if (setjmp(png_jmpbuf(decoder->png))) return -1;
    /* A malformed chunk before the image data (an empty or truncated cHRM, say) is an error, as in
     * libpng's own strict reading; later problems (a palette index past the palette) stay warnings. */
    png_set_benign_errors(decoder->png, 0);
    png_read_info(decoder->png, decoder->info);
    png_set_benign_errors(decoder->png, 1);
    png_uint_32 width, height;
    int bit_depth, color_type, interlace;
    png_get_IHDR(decoder->png, decoder->info, &width, &height, &bit_depth, &color_type, &interlace, NULL, NULL);
    header->width = width;
    header->height = height;
    header->bit_depth = bit_depth;
    header->color_type = color_type;
    header->interlaced = interlace != PNG_INTERLACE_NONE;
    return 0;
}

int imgpng_get_color_chunks(imgpng_decoder *decoder, imgpng_color_chunks *chunks) {
    png_structp png = decoder->png;
    png_infop info = decoder->info;
    memset(chunks, 0, sizeof *chunks);
    if (setjmp(png_jmpbuf(png))) return -1;
    png_unknown_chunkp unknown = NULL;
    int count = png_get_unknown_chunks(png, info, &unknown);
    for (int index = 0; index < count; index++) {
        if (memcmp(unknown[index].name, "iCCP", 4) == 0) {
            chunks->iccp = unknown[index].data;
            chunks->iccp_length = unknown[index].size;
            break;
        }
    }
    int intent;
    chunks->has_srgb = png_get_sRGB(png, info, &intent) != 0;
    chunks->has_gamma = png_get_gAMA(png, info, &chunks->gamma) != 0;
    chunks->has_chromaticities = png_get_cHRM(png, info, &chunks->white_x, &chunks->white_y, &chunks->red_x,
                                              &chunks->red_y, &chunks->green_x, &chunks->green_y,
                                              &chunks->blue_x, &chunks->blue_y) != 0;
    return 0;
}

int imgpng_set_layout(imgpng_decoder *decoder, imgpng_layout layout, int *channels, size_t *row_bytes,
                      int *passes) {
    png_structp png = decoder->png;
    png_infop info = decoder->info;
    if (setjmp(png_jmpbuf(png))) return -1;
    png_set_expand(png);
    png_set_strip_16(png);
    if (layout == IMGPNG_RGBA8) {
        png_set_gray_to_rgb(png);
        png_set_add_alpha(png, 0xff, PNG_FILLER_AFTER);
    }
    *passes = png_set_interlace_handling(png);
    png_read_update_info(png, info);
    *channels = png_get_channels(png, info);
    *row_bytes = png_get_rowbytes(png, info);
    return 0;
}

int imgpng_read_row(imgpng_decoder *decoder, uint8_t *row) {
    if (setjmp(png_jmpbuf(decoder->png))) return -1;
    png_read_row(decoder->png, row, NULL);
    return 0;
}

int imgpng_read_end(imgpng_decoder *decoder) {
    if (setjmp(png_jmpbuf(decoder->png))) return -1;
    png_read_end(decoder->png, NULL);
    return 0;
}
