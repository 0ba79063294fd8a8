/** File uploads (seed 000 §5; seed 002 §8 upload errors). */
export default {
  'upload.progress': 'Progresso do envio',
  'upload.progress_value': 'Enviando… {{value}}%',
  'validation.file.max_size': 'O arquivo passa do tamanho máximo de {{limit}} bytes.',
  'validation.file.required': 'Escolha um arquivo.',
  'validation.file.empty': 'O arquivo está vazio.',
  'validation.file.name': 'O nome do arquivo tem caracteres não permitidos (de controle ou de direção do texto).',
  'file.upload.type.error': 'Tipo de arquivo não suportado.',
  'file.upload.dimensions.error': 'As dimensões da imagem estão fora do permitido.',
  'errors.type': 'Tipo de arquivo não suportado.',
  'errors.max_size': 'Arquivo grande demais.',
  'errors.content_mismatch': 'O conteúdo do arquivo não corresponde à extensão.',
  'errors.dimensions': 'As dimensões da imagem estão fora do permitido.',
  'errors.empty': 'O arquivo está vazio.',
  'errors.file_name': 'O nome do arquivo tem caracteres não permitidos.',
}
