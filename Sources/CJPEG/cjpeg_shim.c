#include "cjpeg_shim.h"

#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <jerror.h>

struct imgjpeg_error_manager {
    struct jpeg_error_mgr base;
    jmp_buf jump;
    char message[JMSG_LENGTH_MAX];
    int warnings;
    int ended_early;
};

struct imgjpeg_decoder {
    struct jpeg_decompress_struct cinfo;
    struct imgjpeg_error_manager errors;
    struct jpeg_progress_mgr progress;
    int max_scans;
    int created;
};

static void imgjpeg_error_exit(j_common_ptr cinfo) {
    struct imgjpeg_error_manager *errors = (struct imgjpeg_error_manager *)cinfo->err;
    (*cinfo->err->format_message)(cinfo, errors->message);
    longjmp(errors->jump, 1);
}

/* True when a warning says the compressed data stops before the image does: the file ends
 * (JWRN_JPEG_EOF, after which libjpeg inserts a fake EOI), or a scan's data runs into EOI
 * (JWRN_HIT_MARKER with EOI pending). Either way the rest of the image is filled in grey. */
static int imgjpeg_warning_means_truncated(j_common_ptr cinfo) {
    int code = cinfo->err->msg_code;
    if (code == JWRN_JPEG_EOF) return 1;
    return code == JWRN_HIT_MARKER && cinfo->is_decompressor &&
           ((j_decompress_ptr)cinfo)->unread_marker == JPEG_EOI;
}

static void imgjpeg_emit_message(j_common_ptr cinfo, int level) {
    struct imgjpeg_error_manager *errors = (struct imgjpeg_error_manager *)cinfo->err;
    if (level >= 0) return; /* trace messages */
    errors->warnings += 1;
    if (imgjpeg_warning_means_truncated(cinfo)) errors->ended_early = 1;
    if (errors->warnings == 1) (*cinfo->err->format_message)(cinfo, errors->message);
}

static void imgjpeg_output_message(j_common_ptr cinfo) { (void)cinfo; }

static void imgjpeg_progress(j_common_ptr cinfo) {
    imgjpeg_decoder *decoder = (imgjpeg_decoder *)((char *)cinfo - offsetof(imgjpeg_decoder, cinfo));
    if (decoder->max_scans > 0 && cinfo->is_decompressor &&
        ((j_decompress_ptr)cinfo)->input_scan_number > decoder->max_scans) {
        snprintf(decoder->errors.message, sizeof decoder->errors.message,
                 "more than %d progressive scans", decoder->max_scans);
        longjmp(decoder->errors.jump, 1);
    }
}

static void imgjpeg_install_errors(struct imgjpeg_error_manager *errors) {
    jpeg_std_error(&errors->base);
    errors->base.error_exit = imgjpeg_error_exit;
    errors->base.emit_message = imgjpeg_emit_message;
    errors->base.output_message = imgjpeg_output_message;
    errors->message[0] = 0;
    errors->warnings = 0;
    errors->ended_early = 0;
}

imgjpeg_decoder *imgjpeg_decoder_create(void) {
    imgjpeg_decoder *decoder = calloc(1, sizeof *decoder);
    if (!decoder) return NULL;
    imgjpeg_install_errors(&decoder->errors);
    decoder->cinfo.err = &decoder->errors.base;
    if (setjmp(decoder->errors.jump)) {
        free(decoder);
        return NULL;
    }
    jpeg_create_decompress(&decoder->cinfo);
    decoder->created = 1;
    decoder->progress.progress_monitor = imgjpeg_progress;
    decoder->cinfo.progress = &decoder->progress;
    return decoder;
}

void imgjpeg_decoder_destroy(imgjpeg_decoder *decoder) {
    if (!decoder) return;
    if (decoder->created && !setjmp(decoder->errors.jump)) jpeg_destroy_decompress(&decoder->cinfo);
    free(decoder);
}

struct jpeg_decompress_struct *imgjpeg_decoder_cinfo(imgjpeg_decoder *decoder) { return &decoder->cinfo; }
const char *imgjpeg_error_message(const imgjpeg_decoder *decoder) { return decoder->errors.message; }
int imgjpeg_warning_count(const imgjpeg_decoder *decoder) { return decoder->errors.warnings; }
int imgjpeg_data_ended_early(const imgjpeg_decoder *decoder) { return decoder->errors.ended_early; }

int imgjpeg_coefficients_incomplete(const imgjpeg_decoder *decoder) {
    const struct jpeg_decompress_struct *cinfo = &decoder->cinfo;
    if (!cinfo->progressive_mode || !cinfo->coef_bits) return 0;
    /* coef_bits is -1 for a coefficient no scan has sent, else the Al of its last scan. */
    for (int component = 0; component < cinfo->num_components; component++) {
        if (cinfo->coef_bits[component][0] != 0) return 1;
        for (int k = 1; k < DCTSIZE2; k++) {
            if (cinfo->coef_bits[component][k] > 0) return 1;
        }
    }
    return 0;
}

void imgjpeg_set_limits(imgjpeg_decoder *decoder, int max_scans, long max_memory) {
    decoder->max_scans = max_scans;
    if (max_memory > 0) decoder->cinfo.mem->max_memory_to_use = max_memory;
}

int imgjpeg_use_memory(imgjpeg_decoder *decoder, const uint8_t *bytes, size_t count) {
    if (setjmp(decoder->errors.jump)) return -1;
    jpeg_mem_src(&decoder->cinfo, bytes, (unsigned long)count);
    return 0;
}

int imgjpeg_use_file(imgjpeg_decoder *decoder, FILE *file) {
    if (setjmp(decoder->errors.jump)) return -1;
    jpeg_stdio_src(&decoder->cinfo, file);
    return 0;
}

int imgjpeg_read_header(imgjpeg_decoder *decoder) {
    if (setjmp(decoder->errors.jump)) return -1;
    jpeg_save_markers(&decoder->cinfo, JPEG_APP0 + 1, 0xFFFF);
    /* APP2 holds ICC_PROFILE chunks (reassembled by the caller). */
    jpeg_save_markers(&decoder->cinfo, JPEG_APP0 + 2, 0xFFFF);
    if (jpeg_read_header(&decoder->cinfo, TRUE) != JPEG_HEADER_OK) {
        snprintf(decoder->errors.message, sizeof decoder->errors.message, "no image in the data");
        return -1;
    }
    return 0;
}

int imgjpeg_calc_output_dimensions(imgjpeg_decoder *decoder) {
    if (setjmp(decoder->errors.jump)) return -1;
    jpeg_calc_output_dimensions(&decoder->cinfo);
    return 0;
}

int imgjpeg_start(imgjpeg_decoder *decoder) {
    if (setjmp(decoder->errors.jump)) return -1;
    jpeg_start_decompress(&decoder->cinfo);
    return 0;
}

int imgjpeg_crop_columns(imgjpeg_decoder *decoder, unsigned int *xoffset, unsigned int *width) {
    if (setjmp(decoder->errors.jump)) return -1;
    JDIMENSION x = *xoffset, w = *width;
    jpeg_crop_scanline(&decoder->cinfo, &x, &w);
    *xoffset = x;
    *width = w;
    return 0;
}

int imgjpeg_skip_rows(imgjpeg_decoder *decoder, unsigned int count, unsigned int *skipped) {
    *skipped = 0;
    if (setjmp(decoder->errors.jump)) return -1;
    *skipped = jpeg_skip_scanlines(&decoder->cinfo, count);
    return 0;
}

int imgjpeg_read_rows(imgjpeg_decoder *decoder, uint8_t **rows, int max_rows, int *rows_read) {
    *rows_read = 0;
    if (setjmp(decoder->errors.jump)) return -1;
    *rows_read = (int)jpeg_read_scanlines(&decoder->cinfo, rows, (JDIMENSION)max_rows);
    return 0;
}

void imgjpeg_abort(imgjpeg_decoder *decoder) {
    /* jpeg_abort_decompress frees the image's memory pools. It reports no error today, but every
     * libjpeg call runs under setjmp here, so that an error handler's longjmp can never land in a
     * frame that has returned. */
    if (setjmp(decoder->errors.jump)) return;
    jpeg_abort_decompress(&decoder->cinfo);
}

/* A memory destination of the shim's own: its buffer is only ever replaced here, so the error
 * path frees exactly the buffer that exists (libjpeg's jpeg_mem_dest replaces its buffer when it
 * grows, leaving the caller's pointer stale). */
struct imgjpeg_destination {
    struct jpeg_destination_mgr base;
    unsigned char *buffer;
    size_t capacity;
};

static void imgjpeg_init_destination(j_compress_ptr cinfo) {
    struct imgjpeg_destination *destination = (struct imgjpeg_destination *)cinfo->dest;
    destination->base.next_output_byte = destination->buffer;
    destination->base.free_in_buffer = destination->capacity;
}

static boolean imgjpeg_empty_output_buffer(j_compress_ptr cinfo) {
    struct imgjpeg_destination *destination = (struct imgjpeg_destination *)cinfo->dest;
    size_t used = destination->capacity;
    if (used > ((size_t)-1) / 2) ERREXIT1(cinfo, JERR_OUT_OF_MEMORY, 10);
    unsigned char *grown = realloc(destination->buffer, used * 2);
    if (!grown) ERREXIT1(cinfo, JERR_OUT_OF_MEMORY, 10);
    destination->buffer = grown;
    destination->capacity = used * 2;
    destination->base.next_output_byte = grown + used;
    destination->base.free_in_buffer = used;
    return TRUE;
}

static void imgjpeg_term_destination(j_compress_ptr cinfo) { (void)cinfo; }

int imgjpeg_encode(const uint8_t *pixels, int width, int height, int components, int quality,
                   int progressive, int full_chroma, const uint8_t *icc, size_t icc_length,
                   unsigned char **output, unsigned long *output_size, char *message, size_t message_size) {
    struct jpeg_compress_struct cinfo;
    struct imgjpeg_error_manager errors;
    /* On the heap: its buffer changes after setjmp, which a local may not do and be read after
     * the longjmp. The pointer itself never changes. */
    struct imgjpeg_destination *const destination = calloc(1, sizeof *destination);
    memset(&cinfo, 0, sizeof cinfo);
    imgjpeg_install_errors(&errors);
    cinfo.err = &errors.base;
    *output = NULL;
    *output_size = 0;
    if (destination) {
        destination->capacity = 65536;
        destination->buffer = malloc(destination->capacity);
    }
    if (!destination || !destination->buffer) {
        snprintf(message, message_size, "out of memory");
        free(destination);
        return -1;
    }
    destination->base.init_destination = imgjpeg_init_destination;
    destination->base.empty_output_buffer = imgjpeg_empty_output_buffer;
    destination->base.term_destination = imgjpeg_term_destination;
    if (setjmp(errors.jump)) {
        snprintf(message, message_size, "%s", errors.message);
        jpeg_destroy_compress(&cinfo);
        free(destination->buffer);
        free(destination);
        return -1;
    }
    jpeg_create_compress(&cinfo);
    cinfo.dest = &destination->base;
    cinfo.image_width = (JDIMENSION)width;
    cinfo.image_height = (JDIMENSION)height;
    cinfo.input_components = components;
    /* Four components are RGBA whose alpha libjpeg-turbo skips (JCS_EXT_RGBA). */
    cinfo.in_color_space = components == 1 ? JCS_GRAYSCALE : components == 4 ? JCS_EXT_RGBA : JCS_RGB;
    jpeg_set_defaults(&cinfo);
    jpeg_set_quality(&cinfo, quality, TRUE);
    cinfo.optimize_coding = TRUE;
    if (full_chroma && cinfo.num_components == 3) {
        /* jpeg_set_defaults samples luma 2x2 against chroma 1x1 (4:2:0); 1x1 keeps every chroma sample. */
        cinfo.comp_info[0].h_samp_factor = 1;
        cinfo.comp_info[0].v_samp_factor = 1;
    }
    if (progressive) jpeg_simple_progression(&cinfo);
    jpeg_start_compress(&cinfo, TRUE);
    if (icc) jpeg_write_icc_profile(&cinfo, icc, (unsigned int)icc_length);
    size_t stride = (size_t)width * (size_t)components;
    while (cinfo.next_scanline < cinfo.image_height) {
        JSAMPROW row = (JSAMPROW)(pixels + (size_t)cinfo.next_scanline * stride);
        jpeg_write_scanlines(&cinfo, &row, 1);
    }
    jpeg_finish_compress(&cinfo);
    *output = destination->buffer;
    *output_size = (unsigned long)(destination->capacity - destination->base.free_in_buffer);
    jpeg_destroy_compress(&cinfo);
    free(destination);
    return 0;
}
