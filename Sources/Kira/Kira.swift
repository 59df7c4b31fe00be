// `import Kira` brings in every part of the engine.
@_exported import KiraAnimation
@_exported import KiraCompare
@_exported import KiraFiles
@_exported import KiraFormats
@_exported import KiraGeometry
@_exported import KiraImage
@_exported import KiraOutput
@_exported import KiraPNG
@_exported import KiraPipeline
@_exported import KiraRender
@_exported import KiraRequest
@_exported import KiraSamples
@_exported import KiraShader
@_exported import KiraVideo
