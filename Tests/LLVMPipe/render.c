// Renders kira.frag headless with Mesa (EGL, surfaceless) and writes the result as a PNG.
// Usage: render ART.png MASK.png NX NY NZ OUT.png [REPEATS]
// With REPEATS > 1 it also prints the throughput of the draw, in Mpx/s.
//
// The on-screen frame, drawn as a GPU app draws it (two passes):
// Usage: render --frame ART.png MASK.png NX NY NZ CANVAS_W CANVAS_H M00 M01 M02 M10 M11 M12 M20 M21 M22 OUT.png [REPEATS]
// Pass 1 shades the face with kira.frag into an RGBA8 texture of the art's size; pass 2 clears
// a CANVAS_W x CANVAS_H RGBA8 framebuffer (no MSAA) and draws the face as a perspective quad,
// sampled bilinearly: a face point (x, y) in pixels lands at canvas (X/W, Y/W) with
// [X Y W] = [x y 1] M (Kira's row-vector homography, card to canvas). One frame per flush.
// With REPEATS > 1 it prints the frame rate.
#define GL_GLEXT_PROTOTYPES 1
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GL/glcorearb.h>
#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static void fail(const char *what) { fprintf(stderr, "render: %s\n", what); exit(1); }

static unsigned char *read_png(const char *path, int *w, int *h) {
    png_image image;
    memset(&image, 0, sizeof image);
    image.version = PNG_IMAGE_VERSION;
    if (!png_image_begin_read_from_file(&image, path)) fail(image.message);
    image.format = PNG_FORMAT_RGBA;
    unsigned char *pixels = malloc(PNG_IMAGE_SIZE(image));
    if (!png_image_finish_read(&image, NULL, pixels, 0, NULL)) fail(image.message);
    *w = (int)image.width;
    *h = (int)image.height;
    return pixels;
}

static char *read_text(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) fail("cannot read the shader");
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *text = calloc((size_t)n + 1, 1);
    if (fread(text, 1, (size_t)n, f) != (size_t)n) fail("short read");
    fclose(f);
    return text;
}

static GLuint texture(const unsigned char *pixels, int w, int h) {
    GLuint t;
    glGenTextures(1, &t);
    glBindTexture(GL_TEXTURE_2D, t);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, w, h, 0, GL_RGBA, GL_UNSIGNED_BYTE, pixels);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    return t;
}

static GLuint compile(GLenum kind, const char *source) {
    GLuint s = glCreateShader(kind);
    glShaderSource(s, 1, &source, NULL);
    glCompileShader(s);
    GLint ok;
    glGetShaderiv(s, GL_COMPILE_STATUS, &ok);
    if (!ok) {
        char log[4096];
        glGetShaderInfoLog(s, sizeof log, NULL, log);
        fprintf(stderr, "%s\n", log);
        fail("shader compilation failed");
    }
    return s;
}

static void make_context(void) {
    PFNEGLGETPLATFORMDISPLAYEXTPROC get_display = (PFNEGLGETPLATFORMDISPLAYEXTPROC)eglGetProcAddress("eglGetPlatformDisplayEXT");
    EGLDisplay display = get_display(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL);
    if (!eglInitialize(display, NULL, NULL)) fail("eglInitialize");
    eglBindAPI(EGL_OPENGL_API);
    EGLint config_attributes[] = {EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT, EGL_NONE};
    EGLConfig config;
    EGLint count;
    eglChooseConfig(display, config_attributes, &config, 1, &count);
    EGLint context_attributes[] = {EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_MINOR_VERSION, 3,
                                   EGL_CONTEXT_OPENGL_PROFILE_MASK, EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT, EGL_NONE};
    EGLContext context = eglCreateContext(display, count ? config : EGL_NO_CONFIG_KHR, EGL_NO_CONTEXT, context_attributes);
    if (context == EGL_NO_CONTEXT) fail("eglCreateContext");
    if (!eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, context)) fail("eglMakeCurrent");
    fprintf(stderr, "renderer: %s\n", (const char *)glGetString(GL_RENDERER));

}

static int frame_main(int argc, char **argv);

int main(int argc, char **argv) {
    if (argc > 1 && strcmp(argv[1], "--frame") == 0) return frame_main(argc - 1, argv + 1);
    if (argc < 7) fail("usage: render ART.png MASK.png NX NY NZ OUT.png [REPEATS] [SHADER]");
    int repeats = argc > 7 ? atoi(argv[7]) : 1;
    const char *shader_path = argc > 8 ? argv[8] : "kira.frag";
    int w, h, mw, mh;
    unsigned char *art = read_png(argv[1], &w, &h);
    unsigned char *mask = read_png(argv[2], &mw, &mh);

    make_context();

    GLuint framebuffer, color;
    glGenFramebuffers(1, &framebuffer);
    glBindFramebuffer(GL_FRAMEBUFFER, framebuffer);
    glGenRenderbuffers(1, &color);
    glBindRenderbuffer(GL_RENDERBUFFER, color);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, w, h);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, color);
    if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE) fail("framebuffer");

    const char *vertex = "#version 330 core\nconst vec2 p[3] = vec2[](vec2(-1,-1), vec2(3,-1), vec2(-1,3));\n"
                         "void main() { gl_Position = vec4(p[gl_VertexID], 0, 1); }\n";
    GLuint program = glCreateProgram();
    glAttachShader(program, compile(GL_VERTEX_SHADER, vertex));
    glAttachShader(program, compile(GL_FRAGMENT_SHADER, read_text(shader_path)));
    glLinkProgram(program);
    glUseProgram(program);
    GLuint vao;
    glGenVertexArrays(1, &vao);
    glBindVertexArray(vao);

    // PNG rows run top to bottom, GL textures bottom to top: upload as is and flip in the
    // shader's position (texelFetch by the original's top-left position).
    glActiveTexture(GL_TEXTURE0);
    texture(art, w, h);
    glActiveTexture(GL_TEXTURE1);
    texture(mask, mw, mh);
    glUniform1i(glGetUniformLocation(program, "layerTexture"), 0);
    glUniform1i(glGetUniformLocation(program, "monoTexture"), 1);
    glUniform3f(glGetUniformLocation(program, "normal"), (float)atof(argv[3]), (float)atof(argv[4]), (float)atof(argv[5]));
    glUniform2f(glGetUniformLocation(program, "layerSize"), (float)w, (float)h);
    glViewport(0, 0, w, h);

    glDrawArrays(GL_TRIANGLES, 0, 3);
    glFinish();
    if (repeats > 1) {
        struct timespec a, b;
        clock_gettime(CLOCK_MONOTONIC, &a);
        // One draw per flush: llvmpipe drops the binned work of a tile that a later opaque
        // full-tile draw covers, so back-to-back draws would not all be rendered.
        for (int i = 0; i < repeats; i++) {
            glDrawArrays(GL_TRIANGLES, 0, 3);
            glFinish();
        }
        clock_gettime(CLOCK_MONOTONIC, &b);
        double seconds = (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) / 1e9;
        printf("llvmpipe: %.1f Mpx/s (%d draws of %dx%d in %.3f s)\n", (double)w * h * repeats / seconds / 1e6, repeats, w, h, seconds);
    }
    unsigned char *out = malloc((size_t)w * h * 4);
    glReadPixels(0, 0, w, h, GL_RGBA, GL_UNSIGNED_BYTE, out);
    // GL rows are bottom to top; the PNG's top to bottom. The art texture was uploaded with its
    // first row at the bottom, i.e. texel row y holds PNG row y, which the shader addresses by
    // the top-left position: so framebuffer row (h - 1 - y) holds PNG row y.
    png_image image;
    memset(&image, 0, sizeof image);
    image.version = PNG_IMAGE_VERSION;
    image.width = (png_uint_32)w;
    image.height = (png_uint_32)h;
    image.format = PNG_FORMAT_RGBA;
    // A negative stride makes libpng write the rows bottom-up from the start of the buffer.
    if (!png_image_write_to_file(&image, argv[6], 0, out, -w * 4, NULL)) fail(image.message);
    return 0;
}

// MARK: - The two-pass frame

static double now_seconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static int frame_main(int argc, char **argv) {
    if (argc < 18) fail("usage: render --frame ART.png MASK.png NX NY NZ CANVAS_W CANVAS_H M00 ... M22 OUT.png [REPEATS] [SHADER]");
    int w, h, mw, mh;
    unsigned char *art = read_png(argv[1], &w, &h);
    unsigned char *mask = read_png(argv[2], &mw, &mh);
    int cw = atoi(argv[6]), ch = atoi(argv[7]);
    float m[9];
    for (int i = 0; i < 9; i++) m[i] = (float)atof(argv[8 + i]);
    const char *out_path = argv[17];
    int repeats = argc > 18 ? atoi(argv[18]) : 1;
    const char *shader_path = argc > 19 ? argv[19] : "kira.frag";
    make_context();

    // Pass 1 target: the face, as a texture pass 2 samples.
    GLuint face, face_buffer;
    glGenTextures(1, &face);
    glBindTexture(GL_TEXTURE_2D, face);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, w, h, 0, GL_RGBA, GL_UNSIGNED_BYTE, NULL);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    glGenFramebuffers(1, &face_buffer);
    glBindFramebuffer(GL_FRAMEBUFFER, face_buffer);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, face, 0);
    if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE) fail("face framebuffer");

    // Pass 2 target: the canvas (a renderbuffer, single-sampled).
    GLuint canvas_buffer, canvas;
    glGenFramebuffers(1, &canvas_buffer);
    glBindFramebuffer(GL_FRAMEBUFFER, canvas_buffer);
    glGenRenderbuffers(1, &canvas);
    glBindRenderbuffer(GL_RENDERBUFFER, canvas);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, cw, ch);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, canvas);
    if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE) fail("canvas framebuffer");

    const char *triangle = "#version 330 core\nconst vec2 p[3] = vec2[](vec2(-1,-1), vec2(3,-1), vec2(-1,3));\n"
                           "void main() { gl_Position = vec4(p[gl_VertexID], 0, 1); }\n";
    GLuint shade = glCreateProgram();
    glAttachShader(shade, compile(GL_VERTEX_SHADER, triangle));
    glAttachShader(shade, compile(GL_FRAGMENT_SHADER, read_text(shader_path)));
    glLinkProgram(shade);

    // The quad: corner (u, v) in 0...1 of the face; its canvas position through the homography,
    // with W as clip w so that the rasteriser interpolates perspective-correctly. Canvas rows
    // run top to bottom in y; the face texture holds PNG row y at texel row h - 1 - y (pass 1
    // writes rows as the shade mode does), hence t = 1 - v.
    const char *quad_vertex =
        "#version 330 core\n"
        "uniform mat3 homography; uniform vec2 faceSize; uniform vec2 canvasSize;\n"
        "const vec2 corner[4] = vec2[](vec2(0,0), vec2(1,0), vec2(0,1), vec2(1,1));\n"
        "out vec2 uv;\n"
        "void main() {\n"
        "  vec2 c = corner[gl_VertexID]; uv = vec2(c.x, 1.0 - c.y);\n"
        "  vec3 p = vec3(c * faceSize, 1.0) * homography;\n"  // row vector times M (M uploaded row-major)
        "  gl_Position = vec4(2.0 * p.x / canvasSize.x - p.z, p.z - 2.0 * p.y / canvasSize.y, 0.0, p.z);\n"
        "}\n";
    const char *quad_fragment =
        "#version 330 core\nuniform sampler2D face; in vec2 uv; out vec4 color;\n"
        "void main() { color = texture(face, uv); }\n";
    GLuint quad = glCreateProgram();
    glAttachShader(quad, compile(GL_VERTEX_SHADER, quad_vertex));
    glAttachShader(quad, compile(GL_FRAGMENT_SHADER, quad_fragment));
    glLinkProgram(quad);
    GLuint vao;
    glGenVertexArrays(1, &vao);
    glBindVertexArray(vao);

    glActiveTexture(GL_TEXTURE1);
    texture(art, w, h);
    glActiveTexture(GL_TEXTURE2);
    texture(mask, mw, mh);
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_2D, face);
    glUseProgram(shade);
    glUniform1i(glGetUniformLocation(shade, "layerTexture"), 1);
    glUniform1i(glGetUniformLocation(shade, "monoTexture"), 2);
    glUniform3f(glGetUniformLocation(shade, "normal"), (float)atof(argv[3]), (float)atof(argv[4]), (float)atof(argv[5]));
    glUniform2f(glGetUniformLocation(shade, "layerSize"), (float)w, (float)h);
    glUseProgram(quad);
    glUniformMatrix3fv(glGetUniformLocation(quad, "homography"), 1, GL_TRUE, m);
    glUniform2f(glGetUniformLocation(quad, "faceSize"), (float)w, (float)h);
    glUniform2f(glGetUniformLocation(quad, "canvasSize"), (float)cw, (float)ch);
    glUniform1i(glGetUniformLocation(quad, "face"), 0);
    glBlendFunc(GL_ONE, GL_ONE_MINUS_SRC_ALPHA);  // source-over, premultiplied, as a compositor does

    int frames = repeats > 1 ? repeats : 1;
    double start = 0;
    for (int i = 0; i <= frames; i++) {
        if (i == 1) start = now_seconds();  // frame 0 warms up (shader compilation, first faults)
        glBindFramebuffer(GL_FRAMEBUFFER, face_buffer);
        glViewport(0, 0, w, h);
        glDisable(GL_BLEND);
        glUseProgram(shade);
        glDrawArrays(GL_TRIANGLES, 0, 3);
        glBindFramebuffer(GL_FRAMEBUFFER, canvas_buffer);
        glViewport(0, 0, cw, ch);
        glClearColor(0, 0, 0, 0);
        glClear(GL_COLOR_BUFFER_BIT);
        glEnable(GL_BLEND);
        glUseProgram(quad);
        glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
        glFinish();
    }
    double seconds = now_seconds() - start;
    if (repeats > 1) {
        printf("llvmpipe two-pass frame: %.1f frames/s (%d frames of a %dx%d face on %dx%d in %.3f s)\n",
               frames / seconds, frames, w, h, cw, ch, seconds);
    }
    unsigned char *out = malloc((size_t)cw * ch * 4);
    glReadPixels(0, 0, cw, ch, GL_RGBA, GL_UNSIGNED_BYTE, out);
    png_image image;
    memset(&image, 0, sizeof image);
    image.version = PNG_IMAGE_VERSION;
    image.width = (png_uint_32)cw;
    image.height = (png_uint_32)ch;
    image.format = PNG_FORMAT_RGBA;
    // Canvas y runs down and NDC y up, so framebuffer row 0 (the bottom) holds canvas row ch - 1:
    // write bottom-up.
    if (!png_image_write_to_file(&image, out_path, 0, out, -cw * 4, NULL)) fail(image.message);
    return 0;
}
