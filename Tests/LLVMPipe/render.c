// Renders kira.frag headless with Mesa (EGL, surfaceless) and writes the result as a PNG.
// Usage: render ART.png MASK.png NX NY NZ OUT.png [REPEATS]
// With REPEATS > 1 it also prints the throughput of the draw, in Mpx/s.
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

int main(int argc, char **argv) {
    if (argc < 7) fail("usage: render ART.png MASK.png NX NY NZ OUT.png [REPEATS] [SHADER]");
    int repeats = argc > 7 ? atoi(argv[7]) : 1;
    const char *shader_path = argc > 8 ? argv[8] : "kira.frag";
    int w, h, mw, mh;
    unsigned char *art = read_png(argv[1], &w, &h);
    unsigned char *mask = read_png(argv[2], &mw, &mh);

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
    // shader's position (texelFetch by the seed's top-left position).
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
