import { Box, Button, Group, Slider, Stack, Text } from '@mantine/core';
import { useCallback, useImperativeHandle, useRef, useState, type KeyboardEvent, type PointerEvent, type Ref } from 'react';
import { ErrorText } from '../../../components/error-text.tsx';

const VIEW = 240;
const MAX_OUTPUT = 1024;

interface Offset {
  x: number;
  y: number;
}

/** Keeps the image covering the whole square: no empty edge may show. */
function clampOffset(o: Offset, width: number, height: number): Offset {
  return { x: Math.min(0, Math.max(VIEW - width, o.x)), y: Math.min(0, Math.max(VIEW - height, o.y)) };
}

/** PNG keeps transparency (PNG, GIF sources), WebP too (a WebP, or a photo reduced to one); photos become JPEG, much smaller. */
function outputType(sourceType: string): { type: string; quality?: number; extension: string } {
  if (sourceType === 'image/jpeg') return { type: 'image/jpeg', quality: 0.9, extension: 'jpg' };
  if (sourceType === 'image/webp') return { type: 'image/webp', quality: 0.9, extension: 'webp' };
  return { type: 'image/png', extension: 'png' };
}

/** For a form that uploads the photo itself (hiring): the square as the user has set it so far. */
export interface SquareCropperHandle {
  /** Rejects, with a sentence to show, while the picture is still loading or cannot be drawn. */
  crop(): Promise<File>;
}

/**
 * Square crop of a picture: drag (or arrow keys) to move it, the slider to zoom. The result is drawn
 * on a canvas at up to 1024×1024 and handed back as a new file.
 */
export function SquareCropper({
  src,
  sourceType,
  fileName,
  onCropped,
  onCancel,
  busy,
  ref,
}: {
  ref?: Ref<SquareCropperHandle>;
  src: string;
  sourceType: string;
  fileName: string;
  onCropped: (file: File) => void;
  onCancel: () => void;
  busy?: boolean;
}) {
  const [natural, setNatural] = useState<{ w: number; h: number } | null>(null);
  const [zoom, setZoom] = useState(1);
  const [offset, setOffset] = useState<Offset>({ x: 0, y: 0 });
  const [error, setError] = useState<string | null>(null);
  const imgRef = useRef<HTMLImageElement>(null);
  const drag = useRef<{ pointer: number; startX: number; startY: number; from: Offset } | null>(null);

  const base = natural ? VIEW / Math.min(natural.w, natural.h) : 1;
  const scale = base * zoom;
  const width = natural ? natural.w * scale : VIEW;
  const height = natural ? natural.h * scale : VIEW;

  // A new image starts unmeasured at zoom 1 (state adjusted while rendering, not in an effect).
  const [shownSrc, setShownSrc] = useState(src);
  if (src !== shownSrc) {
    setShownSrc(src);
    setNatural(null);
    setZoom(1);
    setError(null);
  }

  const onLoad = () => {
    const img = imgRef.current;
    if (!img) return;
    const w = img.naturalWidth;
    const h = img.naturalHeight;
    if (!w || !h) {
      setError('This image could not be read. Choose another file.');
      return;
    }
    setNatural({ w, h });
    const s = VIEW / Math.min(w, h);
    setOffset({ x: (VIEW - w * s) / 2, y: (VIEW - h * s) / 2 });
  };

  /** Zooms around the centre of the square, so what is in the middle stays there. */
  const changeZoom = (next: number) => {
    if (!natural) return;
    const centreX = (VIEW / 2 - offset.x) / scale;
    const centreY = (VIEW / 2 - offset.y) / scale;
    const nextScale = base * next;
    setZoom(next);
    setOffset(clampOffset({ x: VIEW / 2 - centreX * nextScale, y: VIEW / 2 - centreY * nextScale }, natural.w * nextScale, natural.h * nextScale));
  };

  const onPointerDown = (e: PointerEvent<HTMLDivElement>) => {
    e.currentTarget.setPointerCapture(e.pointerId);
    drag.current = { pointer: e.pointerId, startX: e.clientX, startY: e.clientY, from: offset };
  };
  const onPointerMove = (e: PointerEvent<HTMLDivElement>) => {
    const d = drag.current;
    if (!d || d.pointer !== e.pointerId) return;
    setOffset(clampOffset({ x: d.from.x + e.clientX - d.startX, y: d.from.y + e.clientY - d.startY }, width, height));
  };
  const onPointerUp = () => {
    drag.current = null;
  };
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const step = e.shiftKey ? 40 : 10;
    const moves: Record<string, Offset> = { ArrowLeft: { x: step, y: 0 }, ArrowRight: { x: -step, y: 0 }, ArrowUp: { x: 0, y: step }, ArrowDown: { x: 0, y: -step } };
    const move = moves[e.key];
    if (e.key === '+' || e.key === '=') changeZoom(Math.min(4, zoom + 0.25));
    else if (e.key === '-') changeZoom(Math.max(1, zoom - 0.25));
    else if (!move) return;
    else setOffset((o) => clampOffset({ x: o.x + move.x, y: o.y + move.y }, width, height));
    e.preventDefault();
  };

  const makeCrop = useCallback((): Promise<File> => {
    const img = imgRef.current;
    if (!img || !natural) return Promise.reject(new Error('The photo is still loading; try again in a moment.'));
    const side = VIEW / scale; // in source pixels
    const size = Math.max(1, Math.min(MAX_OUTPUT, Math.round(side)));
    const canvas = document.createElement('canvas');
    canvas.width = size;
    canvas.height = size;
    const ctx = canvas.getContext('2d');
    if (!ctx) return Promise.reject(new Error('This browser cannot crop images. Choose a square picture instead.'));
    ctx.imageSmoothingQuality = 'high';
    ctx.drawImage(img, -offset.x / scale, -offset.y / scale, side, side, 0, 0, size, size);
    const { type, quality, extension } = outputType(sourceType);
    return new Promise((resolve, reject) =>
      canvas.toBlob(
        (blob) => {
          if (!blob) {
            reject(new Error('The cropped picture could not be made. Try another file.'));
            return;
          }
          const stem = fileName.replace(/\.[^.]+$/, '') || 'photo';
          resolve(new File([blob], `${stem}-square.${blob.type === type ? extension : 'png'}`, { type: blob.type || type }));
        },
        type,
        quality,
      ),
    );
  }, [natural, scale, offset, sourceType, fileName]);

  useImperativeHandle(ref, () => ({ crop: makeCrop }), [makeCrop]);

  const crop = () => {
    makeCrop().then(onCropped, (e: Error) => setError(e.message));
  };

  return (
    <Stack gap="sm" align="flex-start">
      <Box
        role="group"
        aria-label="Crop area. Drag the photo or use the arrow keys to move it; plus and minus zoom."
        aria-roledescription="crop area"
        tabIndex={0}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={onPointerUp}
        onPointerCancel={onPointerUp}
        onKeyDown={onKeyDown}
        style={{
          width: VIEW,
          height: VIEW,
          position: 'relative',
          overflow: 'hidden',
          borderRadius: 'var(--mantine-radius-md)',
          border: '1px solid var(--mantine-color-default-border)',
          cursor: natural ? 'grab' : 'default',
          touchAction: 'none',
          background: 'var(--mantine-color-default-hover)',
          userSelect: 'none',
        }}
      >
        <img
          ref={imgRef}
          src={src}
          alt="Photo being cropped"
          onLoad={onLoad}
          onError={() => setError('This image could not be read. Choose another file.')}
          draggable={false}
          style={{
            position: 'absolute',
            left: offset.x,
            top: offset.y,
            width,
            height,
            maxWidth: 'none',
            visibility: natural ? 'visible' : 'hidden',
            pointerEvents: 'none',
          }}
        />
        {/* The round guide shows how the avatar will look. */}
        <Box aria-hidden style={{ position: 'absolute', inset: 0, borderRadius: '50%', boxShadow: '0 0 0 999px rgba(0,0,0,0.35)', pointerEvents: 'none' }} />
      </Box>
      <Box w={VIEW}>
        <Text size="sm" mb={6} aria-hidden>
          Zoom {zoom.toFixed(1)}×
        </Text>
        <Slider min={1} max={4} step={0.05} value={zoom} onChange={changeZoom} thumbLabel="Zoom" label={null} disabled={!natural} />
      </Box>
      <ErrorText>{error}</ErrorText>
      <Group gap="sm">
        <Button onClick={crop} disabled={!natural} loading={busy}>
          Crop and upload
        </Button>
        <Button variant="default" onClick={onCancel} disabled={busy}>
          Choose another
        </Button>
      </Group>
    </Stack>
  );
}
