import { describe, expect, it } from 'vitest';
import { faceShareText, petShareText } from './share';

describe('share texts', () => {
  it('carries the score, the label, the site and the challenge tag', () => {
    const text = faceShareText('8.3', 'Gorgeous', 'https://prettyscore.example');
    expect(text).toBe(
      'I just had my photo scored by AI! My PrettyScore: 8.3/10, "Gorgeous". How does yours score? https://prettyscore.example #AIPhotoChallenge',
    );
  });

  it('has a pet version', () => {
    expect(petShareText(9, 'Absolutely Adorable!', 'https://prettyscore.example/pet-upload')).toBe(
      'My pet scored 9/10 on the PrettyScore cuteness test: "Absolutely Adorable!" How cute is yours? https://prettyscore.example/pet-upload #AIPhotoChallenge',
    );
  });
});
