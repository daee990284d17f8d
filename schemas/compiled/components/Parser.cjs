// Generated from schemas/components/Parser.schema.json by `npm run schemas:compile`; do not edit.
"use strict";
module.exports = validate20;
module.exports.default = validate20;
const schema31 = {"$schema":"https://json-schema.org/draft/2020-12/schema","$id":"https://canvasflow.dev/schemas/components/Parser.schema.json","title":"Parser params","description":"RAGFlow's Parser: one setup per file type. Either a `setups` table (RAGFlow's Python dialect: only the types listed are accepted) or file-type keys flat in the params (the Go dialect: each merged into that type's default).","type":"object","$defs":{"setup":{"type":"object","properties":{"suffix":{"type":"array","items":{"type":"string"},"description":"The extensions this setup takes, lower-case, without the dot."},"output_format":{"enum":["json","markdown","text","html"],"description":"Which payload the Parser gives the next step."},"parse_method":{"type":"string","description":"pdf: plain_text (the text layer) or a vision model's name; deepdoc, mineru, docling, opendataloader, tcadp parser, paddleocr, somark and mistral ocr need RAGFlow's models or a service and are refused. image: a vision model's name (ocr is refused)."},"lang":{"type":"string"},"flatten_media_to_text":{"type":"boolean"},"remove_toc":{"type":"boolean"},"remove_header_footer":{"type":"boolean"},"vlm":{"type":"object","properties":{"llm_id":{"type":"string"}}},"fields":{"type":"array","items":{"type":"string"},"description":"email: the headers and parts to keep."},"chunk_token_num":{"type":"integer","minimum":1},"delimiter":{"type":"string"}}}},"properties":{"setups":{"type":"object","additionalProperties":{"$ref":"#/$defs/setup"}},"pdf":{"$ref":"#/$defs/setup"},"spreadsheet":{"$ref":"#/$defs/setup"},"doc":{"$ref":"#/$defs/setup"},"docx":{"$ref":"#/$defs/setup"},"markdown":{"$ref":"#/$defs/setup"},"text&code":{"$ref":"#/$defs/setup"},"html":{"$ref":"#/$defs/setup"},"slides":{"$ref":"#/$defs/setup"},"image":{"$ref":"#/$defs/setup"},"email":{"$ref":"#/$defs/setup"},"audio":{"$ref":"#/$defs/setup"},"video":{"$ref":"#/$defs/setup"},"epub":{"$ref":"#/$defs/setup"},"json":{"$ref":"#/$defs/setup"}}};
const schema32 = {"type":"object","properties":{"suffix":{"type":"array","items":{"type":"string"},"description":"The extensions this setup takes, lower-case, without the dot."},"output_format":{"enum":["json","markdown","text","html"],"description":"Which payload the Parser gives the next step."},"parse_method":{"type":"string","description":"pdf: plain_text (the text layer) or a vision model's name; deepdoc, mineru, docling, opendataloader, tcadp parser, paddleocr, somark and mistral ocr need RAGFlow's models or a service and are refused. image: a vision model's name (ocr is refused)."},"lang":{"type":"string"},"flatten_media_to_text":{"type":"boolean"},"remove_toc":{"type":"boolean"},"remove_header_footer":{"type":"boolean"},"vlm":{"type":"object","properties":{"llm_id":{"type":"string"}}},"fields":{"type":"array","items":{"type":"string"},"description":"email: the headers and parts to keep."},"chunk_token_num":{"type":"integer","minimum":1},"delimiter":{"type":"string"}}};

function validate20(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
/*# sourceURL="https://canvasflow.dev/schemas/components/Parser.schema.json" */;
let vErrors = null;
let errors = 0;
const evaluated0 = validate20.evaluated;
if(evaluated0.dynamicProps){
evaluated0.props = undefined;
}
if(evaluated0.dynamicItems){
evaluated0.items = undefined;
}
if(data && typeof data == "object" && !Array.isArray(data)){
if(data.setups !== undefined){
let data0 = data.setups;
if(data0 && typeof data0 == "object" && !Array.isArray(data0)){
for(const key0 in data0){
let data1 = data0[key0];
if(data1 && typeof data1 == "object" && !Array.isArray(data1)){
if(data1.suffix !== undefined){
let data2 = data1.suffix;
if(Array.isArray(data2)){
const len0 = data2.length;
for(let i0=0; i0<len0; i0++){
let data3 = data2[i0];
if(typeof data3 !== "string"){
const err0 = {instancePath:instancePath+"/setups/" + key0.replace(/~/g, "~0").replace(/\//g, "~1")+"/suffix/" + i0,schemaPath:"#/$defs/setup/properties/suffix/items/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema32.properties.suffix.items.type,parentSchema:schema32.properties.suffix.items,data:data3};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
}
}
else {
const err1 = {instancePath:instancePath+"/setups/" + key0.replace(/~/g, "~0").replace(/\//g, "~1")+"/suffix",schemaPath:"#/$defs/setup/properties/suffix/type",keyword:"type",params:{type: "array"},message:"must be array",schema:schema32.properties.suffix.type,parentSchema:schema32.properties.suffix,data:data2};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
}
if(data1.output_format !== undefined){
let data4 = data1.output_format;
if(!((((data4 === "json") || (data4 === "markdown")) || (data4 === "text")) || (data4 === "html"))){
const err2 = {instancePath:instancePath+"/setups/" + key0.replace(/~/g, "~0").replace(/\//g, "~1")+"/output_format",schemaPath:"#/$defs/setup/properties/output_format/enum",keyword:"enum",params:{allowedValues: schema32.properties.output_format.enum},message:"must be equal to one of the allowed values",schema:schema32.properties.output_format.enum,parentSchema:schema32.properties.output_format,data:data4};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
}
if(data1.parse_method !== undefined){
let data5 = data1.parse_method;
if(typeof data5 !== "string"){
const err3 = {instancePath:instancePath+"/setups/" + key0.replace(/~/g, "~0").replace(/\//g, "~1")+"/parse_method",schemaPath:"#/$defs/setup/properties/parse_method/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema32.properties.parse_method.type,parentSchema:schema32.properties.parse_method,data:data5};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
}
if(data1.lang !== undefined){
let data6 = data1.lang;
if(typeof data6 !== "string"){
const err4 = {instancePath:instancePath+"/setups/" + key0.replace(/~/g, "~0").replace(/\//g, "~1")+"/lang",schemaPath:"#/$defs/setup/properties/lang/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema32.properties.lang.type,parentSchema:schema32.properties.lang,data:data6};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
}
if(data1.flatten_media_to_text !== undefined){
let data7 = data1.flatten_media_to_text;
if(typeof data7 !== "boolean"){
const err5 = {instancePath:instancePath+"/setups/" + key0.replace(/~/g, "~0").replace(/\//g, "~1")+"/flatten_media_to_text",schemaPath:"#/$defs/setup/properties/flatten_media_to_text/type",keyword:"type",params:{type: "boolean"},message:"must be boolean",schema:schema32.properties.flatten_media_to_text.type,parentSchema:schema32.properties.flatten_media_to_text,data:data7};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
}
}
if(data1.remove_toc !== undefined){
let data8 = data1.remove_toc;
if(typeof data8 !== "boolean"){
const err6 = {instancePath:instancePath+"/setups/" + key0.replace(/~/g, "~0").replace(/\//g, "~1")+"/remove_toc",schemaPath:"#/$defs/setup/properties/remove_toc/type",keyword:"type",params:{type: "boolean"},message:"must be boolean",schema:schema32.properties.remove_toc.type,parentSchema:schema32.properties.remove_toc,data:data8};
if(vErrors === null){
vErrors = [err6];
}
else {
vErrors.push(err6);
}
errors++;
}
}
if(data1.remove_header_footer !== undefined){
let data9 = data1.remove_header_footer;
if(typeof data9 !== "boolean"){
const err7 = {instancePath:instancePath+"/setups/" + key0.replace(/~/g, "~0").replace(/\//g, "~1")+"/remove_header_footer",schemaPath:"#/$defs/setup/properties/remove_header_footer/type",keyword:"type",params:{type: "boolean"},message:"must be boolean",schema:schema32.properties.remove_header_footer.type,parentSchema:schema32.properties.remove_header_footer,data:data9};
if(vErrors === null){
vErrors = [err7];
}
else {
vErrors.push(err7);
}
errors++;
}
}
if(data1.vlm !== undefined){
let data10 = data1.vlm;
if(data10 && typeof data10 == "object" && !Array.isArray(data10)){
if(data10.llm_id !== undefined){
let data11 = data10.llm_id;
if(typeof data11 !== "string"){
const err8 = {instancePath:instancePath+"/setups/" + key0.replace(/~/g, "~0").replace(/\//g, "~1")+"/vlm/llm_id",schemaPath:"#/$defs/setup/properties/vlm/properties/llm_id/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema32.properties.vlm.properties.llm_id.type,parentSchema:schema32.properties.vlm.properties.llm_id,data:data11};
if(vErrors === null){
vErrors = [err8];
}
else {
vErrors.push(err8);
}
errors++;
}
}
}
else {
const err9 = {instancePath:instancePath+"/setups/" + key0.replace(/~/g, "~0").replace(/\//g, "~1")+"/vlm",schemaPath:"#/$defs/setup/properties/vlm/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema32.properties.vlm.type,parentSchema:schema32.properties.vlm,data:data10};
if(vErrors === null){
vErrors = [err9];
}
else {
vErrors.push(err9);
}
errors++;
}
}
if(data1.fields !== undefined){
let data12 = data1.fields;
if(Array.isArray(data12)){
const len1 = data12.length;
for(let i1=0; i1<len1; i1++){
let data13 = data12[i1];
if(typeof data13 !== "string"){
const err10 = {instancePath:instancePath+"/setups/" + key0.replace(/~/g, "~0").replace(/\//g, "~1")+"/fields/" + i1,schemaPath:"#/$defs/setup/properties/fields/items/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema32.properties.fields.items.type,parentSchema:schema32.properties.fields.items,data:data13};
if(vErrors === null){
vErrors = [err10];
}
else {
vErrors.push(err10);
}
errors++;
}
}
}
else {
const err11 = {instancePath:instancePath+"/setups/" + key0.replace(/~/g, "~0").replace(/\//g, "~1")+"/fields",schemaPath:"#/$defs/setup/properties/fields/type",keyword:"type",params:{type: "array"},message:"must be array",schema:schema32.properties.fields.type,parentSchema:schema32.properties.fields,data:data12};
if(vErrors === null){
vErrors = [err11];
}
else {
vErrors.push(err11);
}
errors++;
}
}
if(data1.chunk_token_num !== undefined){
let data14 = data1.chunk_token_num;
if(!((typeof data14 == "number") && (!(data14 % 1) && !isNaN(data14)))){
const err12 = {instancePath:instancePath+"/setups/" + key0.replace(/~/g, "~0").replace(/\//g, "~1")+"/chunk_token_num",schemaPath:"#/$defs/setup/properties/chunk_token_num/type",keyword:"type",params:{type: "integer"},message:"must be integer",schema:schema32.properties.chunk_token_num.type,parentSchema:schema32.properties.chunk_token_num,data:data14};
if(vErrors === null){
vErrors = [err12];
}
else {
vErrors.push(err12);
}
errors++;
}
if(typeof data14 == "number"){
if(data14 < 1 || isNaN(data14)){
const err13 = {instancePath:instancePath+"/setups/" + key0.replace(/~/g, "~0").replace(/\//g, "~1")+"/chunk_token_num",schemaPath:"#/$defs/setup/properties/chunk_token_num/minimum",keyword:"minimum",params:{comparison: ">=", limit: 1},message:"must be >= 1",schema:1,parentSchema:schema32.properties.chunk_token_num,data:data14};
if(vErrors === null){
vErrors = [err13];
}
else {
vErrors.push(err13);
}
errors++;
}
}
}
if(data1.delimiter !== undefined){
let data15 = data1.delimiter;
if(typeof data15 !== "string"){
const err14 = {instancePath:instancePath+"/setups/" + key0.replace(/~/g, "~0").replace(/\//g, "~1")+"/delimiter",schemaPath:"#/$defs/setup/properties/delimiter/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema32.properties.delimiter.type,parentSchema:schema32.properties.delimiter,data:data15};
if(vErrors === null){
vErrors = [err14];
}
else {
vErrors.push(err14);
}
errors++;
}
}
}
else {
const err15 = {instancePath:instancePath+"/setups/" + key0.replace(/~/g, "~0").replace(/\//g, "~1"),schemaPath:"#/$defs/setup/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema32.type,parentSchema:schema32,data:data1};
if(vErrors === null){
vErrors = [err15];
}
else {
vErrors.push(err15);
}
errors++;
}
}
}
else {
const err16 = {instancePath:instancePath+"/setups",schemaPath:"#/properties/setups/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema31.properties.setups.type,parentSchema:schema31.properties.setups,data:data0};
if(vErrors === null){
vErrors = [err16];
}
else {
vErrors.push(err16);
}
errors++;
}
}
if(data.pdf !== undefined){
let data16 = data.pdf;
if(data16 && typeof data16 == "object" && !Array.isArray(data16)){
if(data16.suffix !== undefined){
let data17 = data16.suffix;
if(Array.isArray(data17)){
const len2 = data17.length;
for(let i2=0; i2<len2; i2++){
let data18 = data17[i2];
if(typeof data18 !== "string"){
const err17 = {instancePath:instancePath+"/pdf/suffix/" + i2,schemaPath:"#/$defs/setup/properties/suffix/items/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema32.properties.suffix.items.type,parentSchema:schema32.properties.suffix.items,data:data18};
if(vErrors === null){
vErrors = [err17];
}
else {
vErrors.push(err17);
}
errors++;
}
}
}
else {
const err18 = {instancePath:instancePath+"/pdf/suffix",schemaPath:"#/$defs/setup/properties/suffix/type",keyword:"type",params:{type: "array"},message:"must be array",schema:schema32.properties.suffix.type,parentSchema:schema32.properties.suffix,data:data17};
if(vErrors === null){
vErrors = [err18];
}
else {
vErrors.push(err18);
}
errors++;
}
}
if(data16.output_format !== undefined){
let data19 = data16.output_format;
if(!((((data19 === "json") || (data19 === "markdown")) || (data19 === "text")) || (data19 === "html"))){
const err19 = {instancePath:instancePath+"/pdf/output_format",schemaPath:"#/$defs/setup/properties/output_format/enum",keyword:"enum",params:{allowedValues: schema32.properties.output_format.enum},message:"must be equal to one of the allowed values",schema:schema32.properties.output_format.enum,parentSchema:schema32.properties.output_format,data:data19};
if(vErrors === null){
vErrors = [err19];
}
else {
vErrors.push(err19);
}
errors++;
}
}
if(data16.parse_method !== undefined){
let data20 = data16.parse_method;
if(typeof data20 !== "string"){
const err20 = {instancePath:instancePath+"/pdf/parse_method",schemaPath:"#/$defs/setup/properties/parse_method/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema32.properties.parse_method.type,parentSchema:schema32.properties.parse_method,data:data20};
if(vErrors === null){
vErrors = [err20];
}
else {
vErrors.push(err20);
}
errors++;
}
}
if(data16.lang !== undefined){
let data21 = data16.lang;
if(typeof data21 !== "string"){
const err21 = {instancePath:instancePath+"/pdf/lang",schemaPath:"#/$defs/setup/properties/lang/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema32.properties.lang.type,parentSchema:schema32.properties.lang,data:data21};
if(vErrors === null){
vErrors = [err21];
}
else {
vErrors.push(err21);
}
errors++;
}
}
if(data16.flatten_media_to_text !== undefined){
let data22 = data16.flatten_media_to_text;
if(typeof data22 !== "boolean"){
const err22 = {instancePath:instancePath+"/pdf/flatten_media_to_text",schemaPath:"#/$defs/setup/properties/flatten_media_to_text/type",keyword:"type",params:{type: "boolean"},message:"must be boolean",schema:schema32.properties.flatten_media_to_text.type,parentSchema:schema32.properties.flatten_media_to_text,data:data22};
if(vErrors === null){
vErrors = [err22];
}
else {
vErrors.push(err22);
}
errors++;
}
}
if(data16.remove_toc !== undefined){
let data23 = data16.remove_toc;
if(typeof data23 !== "boolean"){
const err23 = {instancePath:instancePath+"/pdf/remove_toc",schemaPath:"#/$defs/setup/properties/remove_toc/type",keyword:"type",params:{type: "boolean"},message:"must be boolean",schema:schema32.properties.remove_toc.type,parentSchema:schema32.properties.remove_toc,data:data23};
if(vErrors === null){
vErrors = [err23];
}
else {
vErrors.push(err23);
}
errors++;
}
}
if(data16.remove_header_footer !== undefined){
let data24 = data16.remove_header_footer;
if(typeof data24 !== "boolean"){
const err24 = {instancePath:instancePath+"/pdf/remove_header_footer",schemaPath:"#/$defs/setup/properties/remove_header_footer/type",keyword:"type",params:{type: "boolean"},message:"must be boolean",schema:schema32.properties.remove_header_footer.type,parentSchema:schema32.properties.remove_header_footer,data:data24};
if(vErrors === null){
vErrors = [err24];
}
else {
vErrors.push(err24);
}
errors++;
}
}
if(data16.vlm !== undefined){
let data25 = data16.vlm;
if(data25 && typeof data25 == "object" && !Array.isArray(data25)){
if(data25.llm_id !== undefined){
let data26 = data25.llm_id;
if(typeof data26 !== "string"){
const err25 = {instancePath:instancePath+"/pdf/vlm/llm_id",schemaPath:"#/$defs/setup/properties/vlm/properties/llm_id/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema32.properties.vlm.properties.llm_id.type,parentSchema:schema32.properties.vlm.properties.llm_id,data:data26};
if(vErrors === null){
vErrors = [err25];
}
else {
vErrors.push(err25);
}
errors++;
}
}
}
else {
const err26 = {instancePath:instancePath+"/pdf/vlm",schemaPath:"#/$defs/setup/properties/vlm/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema32.properties.vlm.type,parentSchema:schema32.properties.vlm,data:data25};
if(vErrors === null){
vErrors = [err26];
}
else {
vErrors.push(err26);
}
errors++;
}
}
if(data16.fields !== undefined){
let data27 = data16.fields;
if(Array.isArray(data27)){
const len3 = data27.length;
for(let i3=0; i3<len3; i3++){
let data28 = data27[i3];
if(typeof data28 !== "string"){
const err27 = {instancePath:instancePath+"/pdf/fields/" + i3,schemaPath:"#/$defs/setup/properties/fields/items/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema32.properties.fields.items.type,parentSchema:schema32.properties.fields.items,data:data28};
if(vErrors === null){
vErrors = [err27];
}
else {
vErrors.push(err27);
}
errors++;
}
}
}
else {
const err28 = {instancePath:instancePath+"/pdf/fields",schemaPath:"#/$defs/setup/properties/fields/type",keyword:"type",params:{type: "array"},message:"must be array",schema:schema32.properties.fields.type,parentSchema:schema32.properties.fields,data:data27};
if(vErrors === null){
vErrors = [err28];
}
else {
vErrors.push(err28);
}
errors++;
}
}
if(data16.chunk_token_num !== undefined){
let data29 = data16.chunk_token_num;
if(!((typeof data29 == "number") && (!(data29 % 1) && !isNaN(data29)))){
const err29 = {instancePath:instancePath+"/pdf/chunk_token_num",schemaPath:"#/$defs/setup/properties/chunk_token_num/type",keyword:"type",params:{type: "integer"},message:"must be integer",schema:schema32.properties.chunk_token_num.type,parentSchema:schema32.properties.chunk_token_num,data:data29};
if(vErrors === null){
vErrors = [err29];
}
else {
vErrors.push(err29);
}
errors++;
}
if(typeof data29 == "number"){
if(data29 < 1 || isNaN(data29)){
const err30 = {instancePath:instancePath+"/pdf/chunk_token_num",schemaPath:"#/$defs/setup/properties/chunk_token_num/minimum",keyword:"minimum",params:{comparison: ">=", limit: 1},message:"must be >= 1",schema:1,parentSchema:schema32.properties.chunk_token_num,data:data29};
if(vErrors === null){
vErrors = [err30];
}
else {
vErrors.push(err30);
}
errors++;
}
}
}
if(data16.delimiter !== undefined){
let data30 = data16.delimiter;
if(typeof data30 !== "string"){
const err31 = {instancePath:instancePath+"/pdf/delimiter",schemaPath:"#/$defs/setup/properties/delimiter/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema32.properties.delimiter.type,parentSchema:schema32.properties.delimiter,data:data30};
if(vErrors === null){
vErrors = [err31];
}
else {
vErrors.push(err31);
}
errors++;
}
}
}
else {
const err32 = {instancePath:instancePath+"/pdf",schemaPath:"#/$defs/setup/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema32.type,parentSchema:schema32,data:data16};
if(vErrors === null){
vErrors = [err32];
}
else {
vErrors.push(err32);
}
errors++;
}
}
if(data.spreadsheet !== undefined){
let data31 = data.spreadsheet;
if(data31 && typeof data31 == "object" && !Array.isArray(data31)){
if(data31.suffix !== undefined){
let data32 = data31.suffix;
if(Array.isArray(data32)){
const len4 = data32.length;
for(let i4=0; i4<len4; i4++){
let data33 = data32[i4];
if(typeof data33 !== "string"){
const err33 = {instancePath:instancePath+"/spreadsheet/suffix/" + i4,schemaPath:"#/$defs/setup/properties/suffix/items/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema32.properties.suffix.items.type,parentSchema:schema32.properties.suffix.items,data:data33};
if(vErrors === null){
vErrors = [err33];
}
else {
vErrors.push(err33);
}
errors++;
}
}
}
else {
const err34 = {instancePath:instancePath+"/spreadsheet/suffix",schemaPath:"#/$defs/setup/properties/suffix/type",keyword:"type",params:{type: "array"},message:"must be array",schema:schema32.properties.suffix.type,parentSchema:schema32.properties.suffix,data:data32};
if(vErrors === null){
vErrors = [err34];
}
else {
vErrors.push(err34);
}
errors++;
}
}
if(data31.output_format !== undefined){
let data34 = data31.output_format;
if(!((((data34 === "json") || (data34 === "markdown")) || (data34 === "text")) || (data34 === "html"))){
const err35 = {instancePath:instancePath+"/spreadsheet/output_format",schemaPath:"#/$defs/setup/properties/output_format/enum",keyword:"enum",params:{allowedValues: schema32.properties.output_format.enum},message:"must be equal to one of the allowed values",schema:schema32.properties.output_format.enum,parentSchema:schema32.properties.output_format,data:data34};
if(vErrors === null){
vErrors = [err35];
}
else {
vErrors.push(err35);
}
errors++;
}
}
if(data31.parse_method !== undefined){
let data35 = data31.parse_method;
if(typeof data35 !== "string"){
const err36 = {instancePath:instancePath+"/spreadsheet/parse_method",schemaPath:"#/$defs/setup/properties/parse_method/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema32.properties.parse_method.type,parentSchema:schema32.properties.parse_method,data:data35};
if(vErrors === null){
vErrors = [err36];
}
else {
vErrors.push(err36);
}
errors++;
}
}
if(data31.lang !== undefined){
let data36 = data31.lang;
if(typeof data36 !== "string"){
const err37 = {instancePath:instancePath+"/spreadsheet/lang",schemaPath:"#/$defs/setup/properties/lang/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema32.properties.lang.type,parentSchema:schema32.properties.lang,data:data36};
if(vErrors === null){
vErrors = [err37];
}
else {
vErrors.push(err37);
}
errors++;
}
}
if(data31.flatten_media_to_text !== undefined){
let data37 = data31.flatten_media_to_text;
if(typeof data37 !== "boolean"){
const err38 = {instancePath:instancePath+"/spreadsheet/flatten_media_to_text",schemaPath:"#/$defs/setup/properties/flatten_media_to_text/type",keyword:"type",params:{type: "boolean"},message:"must be boolean",schema:schema32.properties.flatten_media_to_text.type,parentSchema:schema32.properties.flatten_media_to_text,data:data37};
if(vErrors === null){
vErrors = [err38];
}
else {
vErrors.push(err38);
}
errors++;
}
}
if(data31.remove_toc !== undefined){
let data38 = data31.remove_toc;
if(typeof data38 !== "boolean"){
const err39 = {instancePath:instancePath+"/spreadsheet/remove_toc",schemaPath:"#/$defs/setup/properties/remove_toc/type",keyword:"type",params:{type: "boolean"},message:"must be boolean",schema:schema32.properties.remove_toc.type,parentSchema:schema32.properties.remove_toc,data:data38};
if(vErrors === null){
vErrors = [err39];
}
else {
vErrors.push(err39);
}
errors++;
}
}
if(data31.remove_header_footer !== undefined){
let data39 = data31.remove_header_footer;
if(typeof data39 !== "boolean"){
const err40 = {instancePath:instancePath+"/spreadsheet/remove_header_footer",schemaPath:"#/$defs/setup/properties/remove_header_footer/type",keyword:"type",params:{type: "boolean"},message:"must be boolean",schema:schema32.properties.remove_header_footer.type,parentSchema:schema32.properties.remove_header_footer,data:data39};
if(vErrors === null){
vErrors = [err40];
}
else {
vErrors.push(err40);
}
errors++;
}
}
if(data31.vlm !== undefined){
let data40 = data31.vlm;
if(data40 && typeof data40 == "object" && !Array.isArray(data40)){
if(data40.llm_id !== undefined){
let data41 = data40.llm_id;
if(typeof data41 !== "string"){
const err41 = {instancePath:instancePath+"/spreadsheet/vlm/llm_id",schemaPath:"#/$defs/setup/properties/vlm/properties/llm_id/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema32.properties.vlm.properties.llm_id.type,parentSchema:schema32.properties.vlm.properties.llm_id,data:data41};
if(vErrors === null){
vErrors = [err41];
}
else {
vErrors.push(err41);
}
errors++;
}
}
}
else {
const err42 = {instancePath:instancePath+"/spreadsheet/vlm",schemaPath:"#/$defs/setup/properties/vlm/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema32.properties.vlm.type,parentSchema:schema32.properties.vlm,data:data40};
if(vErrors === null){
vErrors = [err42];
}
else {
vErrors.push(err42);
}
errors++;
}
}
if(data31.fields !== undefined){
let data42 = data31.fields;
if(Array.isArray(data42)){
const len5 = data42.length;
for(let i5=0; i5<len5; i5++){
let data43 = data42[i5];
if(typeof data43 !== "string"){
const err43 = {instancePath:instancePath+"/spreadsheet/fields/" + i5,schemaPath:"#/$defs/setup/properties/fields/items/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema32.properties.fields.items.type,parentSchema:schema32.properties.fields.items,data:data43};
if(vErrors === null){
vErrors = [err43];
}
else {
vErrors.push(err43);
}
errors++;
}
}
}
else {
const err44 = {instancePath:instancePath+"/spreadsheet/fields",schemaPath:"#/$defs/setup/properties/fields/type",keyword:"type",params:{type: "array"},message:"must be array",schema:schema32.properties.fields.type,parentSchema:schema32.properties.fields,data:data42};
if(vErrors === null){
vErrors = [err44];
}
else {
vErrors.push(err44);
}
errors++;
}
}
if(data31.chunk_token_num !== undefined){
let data44 = data31.chunk_token_num;
if(!((typeof data44 == "number") && (!(data44 % 1) && !isNaN(data44)))){
const err45 = {instancePath:instancePath+"/spreadsheet/chunk_token_num",schemaPath:"#/$defs/setup/properties/chunk_token_num/type",keyword:"type",params:{type: "integer"},message:"must be integer",schema:schema32.properties.chunk_token_num.type,parentSchema:schema32.properties.chunk_token_num,data:data44};
if(vErrors === null){
vErrors = [err45];
}
else {
vErrors.push(err45);
}
errors++;
}
if(typeof data44 == "number"){
if(data44 < 1 || isNaN(data44)){
const err46 = {instancePath:instancePath+"/spreadsheet/chunk_token_num",schemaPath:"#/$defs/setup/properties/chunk_token_num/minimum",keyword:"minimum",params:{comparison: ">=", limit: 1},message:"must be >= 1",schema:1,parentSchema:schema32.properties.chunk_token_num,data:data44};
if(vErrors === null){
vErrors = [err46];
}
else {
vErrors.push(err46);
}
errors++;
}
}
}
if(data31.delimiter !== undefined){
let data45 = data31.delimiter;
if(typeof data45 !== "string"){
const err47 = {instancePath:instancePath+"/spreadsheet/delimiter",schemaPath:"#/$defs/setup/properties/delimiter/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema32.properties.delimiter.type,parentSchema:schema32.properties.delimiter,data:data45};
if(vErrors === null){
vErrors = [err47];
}
else {
vErrors.push(err47);
}
errors++;
}
}
}
else {
const err48 = {instancePath:instancePath+"/spreadsheet",schemaPath:"#/$defs/setup/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema32.type,parentSchema:schema32,data:data31};
if(vErrors === null){
vErrors = [err48];
}
else {
vErrors.push(err48);
}
errors++;
}
}
if(data.doc !== undefined){
let data46 = data.doc;
if(data46 && typeof data46 == "object" && !Array.isArray(data46)){
if(data46.suffix !== undefined){
let data47 = data46.suffix;
if(Array.isArray(data47)){
const len6 = data47.length;
for(let i6=0; i6<len6; i6++){
let data48 = data47[i6];
if(typeof data48 !== "string"){
const err49 = {instancePath:instancePath+"/doc/suffix/" + i6,schemaPath:"#/$defs/setup/properties/suffix/items/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema32.properties.suffix.items.type,parentSchema:schema32.properties.suffix.items,data:data48};
if(vErrors === null){
vErrors = [err49];
}
else {
vErrors.push(err49);
}
errors++;
}
}
}
else {
const err50 = {instancePath:instancePath+"/doc/suffix",schemaPath:"#/$defs/setup/properties/suffix/type",keyword:"type",params:{type: "array"},message:"must be array",schema:schema32.properties.suffix.type,parentSchema:schema32.properties.suffix,data:data47};
if(vErrors === null){
vErrors = [err50];
}
else {
vErrors.push(err50);
}
errors++;
}
}
if(data46.output_format !== undefined){
let data49 = data46.output_format;
if(!((((data49 === "json") || (data49 === "markdown")) || (data49 === "text")) || (data49 === "html"))){
const err51 = {instancePath:instancePath+"/doc/output_format",schemaPath:"#/$defs/setup/properties/output_format/enum",keyword:"enum",params:{allowedValues: schema32.properties.output_format.enum},message:"must be equal to one of the allowed values",schema:schema32.properties.output_format.enum,parentSchema:schema32.properties.output_format,data:data49};
if(vErrors === null){
vErrors = [err51];
}
else {
vErrors.push(err51);
}
errors++;
}
}
if(data46.parse_method !== undefined){
let data50 = data46.parse_method;
if(typeof data50 !== "string"){
const err52 = {instancePath:instancePath+"/doc/parse_method",schemaPath:"#/$defs/setup/properties/parse_method/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema32.properties.parse_method.type,parentSchema:schema32.properties.parse_method,data:data50};
if(vErrors === null){
vErrors = [err52];
}
else {
vErrors.push(err52);
}
errors++;
}
}
if(data46.lang !== undefined){
let data51 = data46.lang;
if(typeof data51 !== "string"){
const err53 = {instancePath:instancePath+"/doc/lang",schemaPath:"#/$defs/setup/properties/lang/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema32.properties.lang.type,parentSchema:schema32.properties.lang,data:data51};
if(vErrors === null){
vErrors = [err53];
}
else {
vErrors.push(err53);
}
errors++;
}
}
if(data46.flatten_media_to_text !== undefined){
let data52 = data46.flatten_media_to_text;
if(typeof data52 !== "boolean"){
const err54 = {instancePath:instancePath+"/doc/flatten_media_to_text",schemaPath:"#/$defs/setup/properties/flatten_media_to_text/type",keyword:"type",params:{type: "boolean"},message:"must be boolean",schema:schema32.properties.flatten_media_to_text.type,parentSchema:schema32.properties.flatten_media_to_text,data:data52};
if(vErrors === null){
vErrors = [err54];
}
else {
vErrors.push(err54);
}
errors++;
}
}
if(data46.remove_toc !== undefined){
let data53 = data46.remove_toc;
if(typeof data53 !== "boolean"){
const err55 = {instancePath:instancePath+"/doc/remove_toc",schemaPath:"#/$defs/setup/properties/remove_toc/type",keyword:"type",params:{type: "boolean"},message:"must be boolean",schema:schema32.properties.remove_toc.type,parentSchema:schema32.properties.remove_toc,data:data53};
if(vErrors === null){
vErrors = [err55];
}
else {
vErrors.push(err55);
}
errors++;
}
}
if(data46.remove_header_footer !== undefined){
let data54 = data46.remove_header_footer;
if(typeof data54 !== "boolean"){
const err56 = {instancePath:instancePath+"/doc/remove_header_footer",schemaPath:"#/$defs/setup/properties/remove_header_footer/type",keyword:"type",params:{type: "boolean"},message:"must be boolean",schema:schema32.properties.remove_header_footer.type,parentSchema:schema32.properties.remove_header_footer,data:data54};
if(vErrors === null){
vErrors = [err56];
}
else {
vErrors.push(err56);
}
errors++;
}
}
if(data46.vlm !== undefined){
let data55 = data46.vlm;
if(data55 && typeof data55 == "object" && !Array.isArray(data55)){
if(data55.llm_id !== undefined){
let data56 = data55.llm_id;
if(typeof data56 !== "string"){
const err57 = {instancePath:instancePath+"/doc/vlm/llm_id",schemaPath:"#/$defs/setup/properties/vlm/properties/llm_id/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema32.properties.vlm.properties.llm_id.type,parentSchema:schema32.properties.vlm.properties.llm_id,data:data56};
if(vErrors === null){
vErrors = [err57];
}
else {
vErrors.push(err57);
}
errors++;
}
}
}
else {
const err58 = {instancePath:instancePath+"/doc/vlm",schemaPath:"#/$defs/setup/properties/vlm/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema32.properties.vlm.type,parentSchema:schema32.properties.vlm,data:data55};
if(vErrors === null){
vErrors = [err58];
}
else {
vErrors.push(err58);
}
errors++;
}
}
if(data46.fields !== undefined){
let data57 = data46.fields;
if(Array.isArray(data57)){
const len7 = data57.length;
for(let i7=0; i7<len7; i7++){
let data58 = data57[i7];
if(typeof data58 !== "string"){
const err59 = {instancePath:instancePath+"/doc/fields/" + i7,schemaPath:"#/$defs/setup/properties/fields/items/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema32.properties.fields.items.type,parentSchema:schema32.properties.fields.items,data:data58};
if(vErrors === null){
vErrors = [err59];
}
else {
vErrors.push(err59);
}
errors++;
}
}
}
else {
const err60 = {instancePath:instancePath+"/doc/fields",schemaPath:"#/$defs/setup/properties/fields/type",keyword:"type",params:{type: "array"},message:"must be array",schema:schema32.properties.fields.type,parentSchema:schema32.properties.fields,data:data57};
if(vErrors === null){
vErrors = [err60];
}
else {
vErrors.push(err60);
}
errors++;
}
}
if(data46.chunk_token_num !== undefined){
let data59 = data46.chunk_token_num;
if(!((typeof data59 == "number") && (!(data59 % 1) && !isNaN(data59)))){
const err61 = {instancePath:instancePath+"/doc/chunk_token_num",schemaPath:"#/$defs/setup/properties/chunk_token_num/type",keyword:"type",params:{type: "integer"},message:"must be integer",schema:schema32.properties.chunk_token_num.type,parentSchema:schema32.properties.chunk_token_num,data:data59};
if(vErrors === null){
vErrors = [err61];
}
else {
vErrors.push(err61);
}
errors++;
}
if(typeof data59 == "number"){
if(data59 < 1 || isNaN(data59)){
const err62 = {instancePath:instancePath+"/doc/chunk_token_num",schemaPath:"#/$defs/setup/properties/chunk_token_num/minimum",keyword:"minimum",params:{comparison: ">=", limit: 1},message:"must be >= 1",schema:1,parentSchema:schema32.properties.chunk_token_num,data:data59};
if(vErrors === null){
vErrors = [err62];
}
else {
vErrors.push(err62);
}
errors++;
}
}
}
if(data46.delimiter !== undefined){
let data60 = data46.delimiter;
if(typeof data60 !== "string"){
const err63 = {instancePath:instancePath+"/doc/delimiter",schemaPath:"#/$defs/setup/properties/delimiter/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema32.properties.delimiter.type,parentSchema:schema32.properties.delimiter,data:data60};
if(vErrors === null){
vErrors = [err63];
}
else {
vErrors.push(err63);
}
errors++;
}
}
}
else {
const err64 = {instancePath:instancePath+"/doc",schemaPath:"#/$defs/setup/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema32.type,parentSchema:schema32,data:data46};
if(vErrors === null){
vErrors = [err64];
}
else {
vErrors.push(err64);
}
errors++;
}
}
if(data.docx !== undefined){
let data61 = data.docx;
if(data61 && typeof data61 == "object" && !Array.isArray(data61)){
if(data61.suffix !== undefined){
let data62 = data61.suffix;
if(Array.isArray(data62)){
const len8 = data62.length;
for(let i8=0; i8<len8; i8++){
let data63 = data62[i8];
if(typeof data63 !== "string"){
const err65 = {instancePath:instancePath+"/docx/suffix/" + i8,schemaPath:"#/$defs/setup/properties/suffix/items/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema32.properties.suffix.items.type,parentSchema:schema32.properties.suffix.items,data:data63};
if(vErrors === null){
vErrors = [err65];
}
else {
vErrors.push(err65);
}
errors++;
}
}
}
else {
const err66 = {instancePath:instancePath+"/docx/suffix",schemaPath:"#/$defs/setup/properties/suffix/type",keyword:"type",params:{type: "array"},message:"must be array",schema:schema32.properties.suffix.type,parentSchema:schema32.properties.suffix,data:data62};
if(vErrors === null){
vErrors = [err66];
}
else {
vErrors.push(err66);
}
errors++;
}
}
if(data61.output_format !== undefined){
let data64 = data61.output_format;
if(!((((data64 === "json") || (data64 === "markdown")) || (data64 === "text")) || (data64 === "html"))){
const err67 = {instancePath:instancePath+"/docx/output_format",schemaPath:"#/$defs/setup/properties/output_format/enum",keyword:"enum",params:{allowedValues: schema32.properties.output_format.enum},message:"must be equal to one of the allowed values",schema:schema32.properties.output_format.enum,parentSchema:schema32.properties.output_format,data:data64};
if(vErrors === null){
vErrors = [err67];
}
else {
vErrors.push(err67);
}
errors++;
}
}
if(data61.parse_method !== undefined){
let data65 = data61.parse_method;
if(typeof data65 !== "string"){
const err68 = {instancePath:instancePath+"/docx/parse_method",schemaPath:"#/$defs/setup/properties/parse_method/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema32.properties.parse_method.type,parentSchema:schema32.properties.parse_method,data:data65};
if(vErrors === null){
vErrors = [err68];
}
else {
vErrors.push(err68);
}
errors++;
}
}
if(data61.lang !== undefined){
let data66 = data61.lang;
if(typeof data66 !== "string"){
const err69 = {instancePath:instancePath+"/docx/lang",schemaPath:"#/$defs/setup/properties/lang/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema32.properties.lang.type,parentSchema:schema32.properties.lang,data:data66};
if(vErrors === null){
vErrors = [err69];
}
else {
vErrors.push(err69);
}
errors++;
}
}
if(data61.flatten_media_to_text !== undefined){
let data67 = data61.flatten_media_to_text;
if(typeof data67 !== "boolean"){
const err70 = {instancePath:instancePath+"/docx/flatten_media_to_text",schemaPath:"#/$defs/setup/properties/flatten_media_to_text/type",keyword:"type",params:{type: "boolean"},message:"must be boolean",schema:schema32.properties.flatten_media_to_text.type,parentSchema:schema32.properties.flatten_media_to_text,data:data67};
if(vErrors === null){
vErrors = [err70];
}
else {
vErrors.push(err70);
}
errors++;
}
}
if(data61.remove_toc !== undefined){
let data68 = data61.remove_toc;
if(typeof data68 !== "boolean"){
const err71 = {instancePath:instancePath+"/docx/remove_toc",schemaPath:"#/$defs/setup/properties/remove_toc/type",keyword:"type",params:{type: "boolean"},message:"must be boolean",schema:schema32.properties.remove_toc.type,parentSchema:schema32.properties.remove_toc,data:data68};
if(vErrors === null){
vErrors = [err71];
}
else {
vErrors.push(err71);
}
errors++;
}
}
if(data61.remove_header_footer !== undefined){
let data69 = data61.remove_header_footer;
if(typeof data69 !== "boolean"){
const err72 = {instancePath:instancePath+"/docx/remove_header_footer",schemaPath:"#/$defs/setup/properties/remove_header_footer/type",keyword:"type",params:{type: "boolean"},message:"must be boolean",schema:schema32.properties.remove_header_footer.type,parentSchema:schema32.properties.remove_header_footer,data:data69};
if(vErrors === null){
vErrors = [err72];
}
else {
vErrors.push(err72);
}
errors++;
}
}
if(data61.vlm !== undefined){
let data70 = data61.vlm;
if(data70 && typeof data70 == "object" && !Array.isArray(data70)){
if(data70.llm_id !== undefined){
let data71 = data70.llm_id;
if(typeof data71 !== "string"){
const err73 = {instancePath:instancePath+"/docx/vlm/llm_id",schemaPath:"#/$defs/setup/properties/vlm/properties/llm_id/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema32.properties.vlm.properties.llm_id.type,parentSchema:schema32.properties.vlm.properties.llm_id,data:data71};
if(vErrors === null){
vErrors = [err73];
}
else {
vErrors.push(err73);
}
errors++;
}
}
}
else {
const err74 = {instancePath:instancePath+"/docx/vlm",schemaPath:"#/$defs/setup/properties/vlm/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema32.properties.vlm.type,parentSchema:schema32.properties.vlm,data:data70};
if(vErrors === null){
vErrors = [err74];
}
else {
vErrors.push(err74);
}
errors++;
}
}
if(data61.fields !== undefined){
let data72 = data61.fields;
if(Array.isArray(data72)){
const len9 = data72.length;
for(let i9=0; i9<len9; i9++){
let data73 = data72[i9];
if(typeof data73 !== "string"){
const err75 = {instancePath:instancePath+"/docx/fields/" + i9,schemaPath:"#/$defs/setup/properties/fields/items/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema32.properties.fields.items.type,parentSchema:schema32.properties.fields.items,data:data73};
if(vErrors === null){
vErrors = [err75];
}
else {
vErrors.push(err75);
}
errors++;
}
}
}
else {
const err76 = {instancePath:instancePath+"/docx/fields",schemaPath:"#/$defs/setup/properties/fields/type",keyword:"type",params:{type: "array"},message:"must be array",schema:schema32.properties.fields.type,parentSchema:schema32.properties.fields,data:data72};
if(vErrors === null){
vErrors = [err76];
}
else {
vErrors.push(err76);
}
errors++;
}
}
if(data61.chunk_token_num !== undefined){
let data74 = data61.chunk_token_num;
if(!((typeof data74 == "number") && (!(data74 % 1) && !isNaN(data74)))){
const err77 = {instancePath:instancePath+"/docx/chunk_token_num",schemaPath:"#/$defs/setup/properties/chunk_token_num/type",keyword:"type",params:{type: "integer"},message:"must be integer",schema:schema32.properties.chunk_token_num.type,parentSchema:schema32.properties.chunk_token_num,data:data74};
if(vErrors === null){
vErrors = [err77];
}
else {
vErrors.push(err77);
}
errors++;
}
if(typeof data74 == "number"){
if(data74 < 1 || isNaN(data74)){
const err78 = {instancePath:instancePath+"/docx/chunk_token_num",schemaPath:"#/$defs/setup/properties/chunk_token_num/minimum",keyword:"minimum",params:{comparison: ">=", limit: 1},message:"must be >= 1",schema:1,parentSchema:schema32.properties.chunk_token_num,data:data74};
if(vErrors === null){
vErrors = [err78];
}
else {
vErrors.push(err78);
}
errors++;
}
}
}
if(data61.delimiter !== undefined){
let data75 = data61.delimiter;
if(typeof data75 !== "string"){
const err79 = {instancePath:instancePath+"/docx/delimiter",schemaPath:"#/$defs/setup/properties/delimiter/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema32.properties.delimiter.type,parentSchema:schema32.properties.delimiter,data:data75};
if(vErrors === null){
vErrors = [err79];
}
else {
vErrors.push(err79);
}
errors++;
}
}
}
else {
const err80 = {instancePath:instancePath+"/docx",schemaPath:"#/$defs/setup/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema32.type,parentSchema:schema32,data:data61};
if(vErrors === null){
vErrors = [err80];
}
else {
vErrors.push(err80);
}
errors++;
}
}
if(data.markdown !== undefined){
let data76 = data.markdown;
if(data76 && typeof data76 == "object" && !Array.isArray(data76)){
if(data76.suffix !== undefined){
let data77 = data76.suffix;
if(Array.isArray(data77)){
const len10 = data77.length;
for(let i10=0; i10<len10; i10++){
let data78 = data77[i10];
if(typeof data78 !== "string"){
const err81 = {instancePath:instancePath+"/markdown/suffix/" + i10,schemaPath:"#/$defs/setup/properties/suffix/items/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema32.properties.suffix.items.type,parentSchema:schema32.properties.suffix.items,data:data78};
if(vErrors === null){
vErrors = [err81];
}
else {
vErrors.push(err81);
}
errors++;
}
}
}
else {
const err82 = {instancePath:instancePath+"/markdown/suffix",schemaPath:"#/$defs/setup/properties/suffix/type",keyword:"type",params:{type: "array"},message:"must be array",schema:schema32.properties.suffix.type,parentSchema:schema32.properties.suffix,data:data77};
if(vErrors === null){
vErrors = [err82];
}
else {
vErrors.push(err82);
}
errors++;
}
}
if(data76.output_format !== undefined){
let data79 = data76.output_format;
if(!((((data79 === "json") || (data79 === "markdown")) || (data79 === "text")) || (data79 === "html"))){
const err83 = {instancePath:instancePath+"/markdown/output_format",schemaPath:"#/$defs/setup/properties/output_format/enum",keyword:"enum",params:{allowedValues: schema32.properties.output_format.enum},message:"must be equal to one of the allowed values",schema:schema32.properties.output_format.enum,parentSchema:schema32.properties.output_format,data:data79};
if(vErrors === null){
vErrors = [err83];
}
else {
vErrors.push(err83);
}
errors++;
}
}
if(data76.parse_method !== undefined){
let data80 = data76.parse_method;
if(typeof data80 !== "string"){
const err84 = {instancePath:instancePath+"/markdown/parse_method",schemaPath:"#/$defs/setup/properties/parse_method/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema32.properties.parse_method.type,parentSchema:schema32.properties.parse_method,data:data80};
if(vErrors === null){
vErrors = [err84];
}
else {
vErrors.push(err84);
}
errors++;
}
}
if(data76.lang !== undefined){
let data81 = data76.lang;
if(typeof data81 !== "string"){
const err85 = {instancePath:instancePath+"/markdown/lang",schemaPath:"#/$defs/setup/properties/lang/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema32.properties.lang.type,parentSchema:schema32.properties.lang,data:data81};
if(vErrors === null){
vErrors = [err85];
}
else {
vErrors.push(err85);
}
errors++;
}
}
if(data76.flatten_media_to_text !== undefined){
let data82 = data76.flatten_media_to_text;
if(typeof data82 !== "boolean"){
const err86 = {instancePath:instancePath+"/markdown/flatten_media_to_text",schemaPath:"#/$defs/setup/properties/flatten_media_to_text/type",keyword:"type",params:{type: "boolean"},message:"must be boolean",schema:schema32.properties.flatten_media_to_text.type,parentSchema:schema32.properties.flatten_media_to_text,data:data82};
if(vErrors === null){
vErrors = [err86];
}
else {
vErrors.push(err86);
}
errors++;
}
}
if(data76.remove_toc !== undefined){
let data83 = data76.remove_toc;
if(typeof data83 !== "boolean"){
const err87 = {instancePath:instancePath+"/markdown/remove_toc",schemaPath:"#/$defs/setup/properties/remove_toc/type",keyword:"type",params:{type: "boolean"},message:"must be boolean",schema:schema32.properties.remove_toc.type,parentSchema:schema32.properties.remove_toc,data:data83};
if(vErrors === null){
vErrors = [err87];
}
else {
vErrors.push(err87);
}
errors++;
}
}
if(data76.remove_header_footer !== undefined){
let data84 = data76.remove_header_footer;
if(typeof data84 !== "boolean"){
const err88 = {instancePath:instancePath+"/markdown/remove_header_footer",schemaPath:"#/$defs/setup/properties/remove_header_footer/type",keyword:"type",params:{type: "boolean"},message:"must be boolean",schema:schema32.properties.remove_header_footer.type,parentSchema:schema32.properties.remove_header_footer,data:data84};
if(vErrors === null){
vErrors = [err88];
}
else {
vErrors.push(err88);
}
errors++;
}
}
if(data76.vlm !== undefined){
let data85 = data76.vlm;
if(data85 && typeof data85 == "object" && !Array.isArray(data85)){
if(data85.llm_id !== undefined){
let data86 = data85.llm_id;
if(typeof data86 !== "string"){
const err89 = {instancePath:instancePath+"/markdown/vlm/llm_id",schemaPath:"#/$defs/setup/properties/vlm/properties/llm_id/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema32.properties.vlm.properties.llm_id.type,parentSchema:schema32.properties.vlm.properties.llm_id,data:data86};
if(vErrors === null){
vErrors = [err89];
}
else {
vErrors.push(err89);
}
errors++;
}
}
}
else {
const err90 = {instancePath:instancePath+"/markdown/vlm",schemaPath:"#/$defs/setup/properties/vlm/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema32.properties.vlm.type,parentSchema:schema32.properties.vlm,data:data85};
if(vErrors === null){
vErrors = [err90];
}
else {
vErrors.push(err90);
}
errors++;
}
}
if(data76.fields !== undefined){
let data87 = data76.fields;
if(Array.isArray(data87)){
const len11 = data87.length;
for(let i11=0; i11<len11; i11++){
let data88 = data87[i11];
if(typeof data88 !== "string"){
const err91 = {instancePath:instancePath+"/markdown/fields/" + i11,schemaPath:"#/$defs/setup/properties/fields/items/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema32.properties.fields.items.type,parentSchema:schema32.properties.fields.items,data:data88};
if(vErrors === null){
vErrors = [err91];
}
else {
vErrors.push(err91);
}
errors++;
}
}
}
else {
const err92 = {instancePath:instancePath+"/markdown/fields",schemaPath:"#/$defs/setup/properties/fields/type",keyword:"type",params:{type: "array"},message:"must be array",schema:schema32.properties.fields.type,parentSchema:schema32.properties.fields,data:data87};
if(vErrors === null){
vErrors = [err92];
}
else {
vErrors.push(err92);
}
errors++;
}
}
if(data76.chunk_token_num !== undefined){
let data89 = data76.chunk_token_num;
if(!((typeof data89 == "number") && (!(data89 % 1) && !isNaN(data89)))){
const err93 = {instancePath:instancePath+"/markdown/chunk_token_num",schemaPath:"#/$defs/setup/properties/chunk_token_num/type",keyword:"type",params:{type: "integer"},message:"must be integer",schema:schema32.properties.chunk_token_num.type,parentSchema:schema32.properties.chunk_token_num,data:data89};
if(vErrors === null){
vErrors = [err93];
}
else {
vErrors.push(err93);
}
errors++;
}
if(typeof data89 == "number"){
if(data89 < 1 || isNaN(data89)){
const err94 = {instancePath:instancePath+"/markdown/chunk_token_num",schemaPath:"#/$defs/setup/properties/chunk_token_num/minimum",keyword:"minimum",params:{comparison: ">=", limit: 1},message:"must be >= 1",schema:1,parentSchema:schema32.properties.chunk_token_num,data:data89};
if(vErrors === null){
vErrors = [err94];
}
else {
vErrors.push(err94);
}
errors++;
}
}
}
if(data76.delimiter !== undefined){
let data90 = data76.delimiter;
if(typeof data90 !== "string"){
const err95 = {instancePath:instancePath+"/markdown/delimiter",schemaPath:"#/$defs/setup/properties/delimiter/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema32.properties.delimiter.type,parentSchema:schema32.properties.delimiter,data:data90};
if(vErrors === null){
vErrors = [err95];
}
else {
vErrors.push(err95);
}
errors++;
}
}
}
else {
const err96 = {instancePath:instancePath+"/markdown",schemaPath:"#/$defs/setup/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema32.type,parentSchema:schema32,data:data76};
if(vErrors === null){
vErrors = [err96];
}
else {
vErrors.push(err96);
}
errors++;
}
}
if(data["text&code"] !== undefined){
let data91 = data["text&code"];
if(data91 && typeof data91 == "object" && !Array.isArray(data91)){
if(data91.suffix !== undefined){
let data92 = data91.suffix;
if(Array.isArray(data92)){
const len12 = data92.length;
for(let i12=0; i12<len12; i12++){
let data93 = data92[i12];
if(typeof data93 !== "string"){
const err97 = {instancePath:instancePath+"/text&code/suffix/" + i12,schemaPath:"#/$defs/setup/properties/suffix/items/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema32.properties.suffix.items.type,parentSchema:schema32.properties.suffix.items,data:data93};
if(vErrors === null){
vErrors = [err97];
}
else {
vErrors.push(err97);
}
errors++;
}
}
}
else {
const err98 = {instancePath:instancePath+"/text&code/suffix",schemaPath:"#/$defs/setup/properties/suffix/type",keyword:"type",params:{type: "array"},message:"must be array",schema:schema32.properties.suffix.type,parentSchema:schema32.properties.suffix,data:data92};
if(vErrors === null){
vErrors = [err98];
}
else {
vErrors.push(err98);
}
errors++;
}
}
if(data91.output_format !== undefined){
let data94 = data91.output_format;
if(!((((data94 === "json") || (data94 === "markdown")) || (data94 === "text")) || (data94 === "html"))){
const err99 = {instancePath:instancePath+"/text&code/output_format",schemaPath:"#/$defs/setup/properties/output_format/enum",keyword:"enum",params:{allowedValues: schema32.properties.output_format.enum},message:"must be equal to one of the allowed values",schema:schema32.properties.output_format.enum,parentSchema:schema32.properties.output_format,data:data94};
if(vErrors === null){
vErrors = [err99];
}
else {
vErrors.push(err99);
}
errors++;
}
}
if(data91.parse_method !== undefined){
let data95 = data91.parse_method;
if(typeof data95 !== "string"){
const err100 = {instancePath:instancePath+"/text&code/parse_method",schemaPath:"#/$defs/setup/properties/parse_method/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema32.properties.parse_method.type,parentSchema:schema32.properties.parse_method,data:data95};
if(vErrors === null){
vErrors = [err100];
}
else {
vErrors.push(err100);
}
errors++;
}
}
if(data91.lang !== undefined){
let data96 = data91.lang;
if(typeof data96 !== "string"){
const err101 = {instancePath:instancePath+"/text&code/lang",schemaPath:"#/$defs/setup/properties/lang/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema32.properties.lang.type,parentSchema:schema32.properties.lang,data:data96};
if(vErrors === null){
vErrors = [err101];
}
else {
vErrors.push(err101);
}
errors++;
}
}
if(data91.flatten_media_to_text !== undefined){
let data97 = data91.flatten_media_to_text;
if(typeof data97 !== "boolean"){
const err102 = {instancePath:instancePath+"/text&code/flatten_media_to_text",schemaPath:"#/$defs/setup/properties/flatten_media_to_text/type",keyword:"type",params:{type: "boolean"},message:"must be boolean",schema:schema32.properties.flatten_media_to_text.type,parentSchema:schema32.properties.flatten_media_to_text,data:data97};
if(vErrors === null){
vErrors = [err102];
}
else {
vErrors.push(err102);
}
errors++;
}
}
if(data91.remove_toc !== undefined){
let data98 = data91.remove_toc;
if(typeof data98 !== "boolean"){
const err103 = {instancePath:instancePath+"/text&code/remove_toc",schemaPath:"#/$defs/setup/properties/remove_toc/type",keyword:"type",params:{type: "boolean"},message:"must be boolean",schema:schema32.properties.remove_toc.type,parentSchema:schema32.properties.remove_toc,data:data98};
if(vErrors === null){
vErrors = [err103];
}
else {
vErrors.push(err103);
}
errors++;
}
}
if(data91.remove_header_footer !== undefined){
let data99 = data91.remove_header_footer;
if(typeof data99 !== "boolean"){
const err104 = {instancePath:instancePath+"/text&code/remove_header_footer",schemaPath:"#/$defs/setup/properties/remove_header_footer/type",keyword:"type",params:{type: "boolean"},message:"must be boolean",schema:schema32.properties.remove_header_footer.type,parentSchema:schema32.properties.remove_header_footer,data:data99};
if(vErrors === null){
vErrors = [err104];
}
else {
vErrors.push(err104);
}
errors++;
}
}
if(data91.vlm !== undefined){
let data100 = data91.vlm;
if(data100 && typeof data100 == "object" && !Array.isArray(data100)){
if(data100.llm_id !== undefined){
let data101 = data100.llm_id;
if(typeof data101 !== "string"){
const err105 = {instancePath:instancePath+"/text&code/vlm/llm_id",schemaPath:"#/$defs/setup/properties/vlm/properties/llm_id/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema32.properties.vlm.properties.llm_id.type,parentSchema:schema32.properties.vlm.properties.llm_id,data:data101};
if(vErrors === null){
vErrors = [err105];
}
else {
vErrors.push(err105);
}
errors++;
}
}
}
else {
const err106 = {instancePath:instancePath+"/text&code/vlm",schemaPath:"#/$defs/setup/properties/vlm/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema32.properties.vlm.type,parentSchema:schema32.properties.vlm,data:data100};
if(vErrors === null){
vErrors = [err106];
}
else {
vErrors.push(err106);
}
errors++;
}
}
if(data91.fields !== undefined){
let data102 = data91.fields;
if(Array.isArray(data102)){
const len13 = data102.length;
for(let i13=0; i13<len13; i13++){
let data103 = data102[i13];
if(typeof data103 !== "string"){
const err107 = {instancePath:instancePath+"/text&code/fields/" + i13,schemaPath:"#/$defs/setup/properties/fields/items/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema32.properties.fields.items.type,parentSchema:schema32.properties.fields.items,data:data103};
if(vErrors === null){
vErrors = [err107];
}
else {
vErrors.push(err107);
}
errors++;
}
}
}
else {
const err108 = {instancePath:instancePath+"/text&code/fields",schemaPath:"#/$defs/setup/properties/fields/type",keyword:"type",params:{type: "array"},message:"must be array",schema:schema32.properties.fields.type,parentSchema:schema32.properties.fields,data:data102};
if(vErrors === null){
vErrors = [err108];
}
else {
vErrors.push(err108);
}
errors++;
}
}
if(data91.chunk_token_num !== undefined){
let data104 = data91.chunk_token_num;
if(!((typeof data104 == "number") && (!(data104 % 1) && !isNaN(data104)))){
const err109 = {instancePath:instancePath+"/text&code/chunk_token_num",schemaPath:"#/$defs/setup/properties/chunk_token_num/type",keyword:"type",params:{type: "integer"},message:"must be integer",schema:schema32.properties.chunk_token_num.type,parentSchema:schema32.properties.chunk_token_num,data:data104};
if(vErrors === null){
vErrors = [err109];
}
else {
vErrors.push(err109);
}
errors++;
}
if(typeof data104 == "number"){
if(data104 < 1 || isNaN(data104)){
const err110 = {instancePath:instancePath+"/text&code/chunk_token_num",schemaPath:"#/$defs/setup/properties/chunk_token_num/minimum",keyword:"minimum",params:{comparison: ">=", limit: 1},message:"must be >= 1",schema:1,parentSchema:schema32.properties.chunk_token_num,data:data104};
if(vErrors === null){
vErrors = [err110];
}
else {
vErrors.push(err110);
}
errors++;
}
}
}
if(data91.delimiter !== undefined){
let data105 = data91.delimiter;
if(typeof data105 !== "string"){
const err111 = {instancePath:instancePath+"/text&code/delimiter",schemaPath:"#/$defs/setup/properties/delimiter/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema32.properties.delimiter.type,parentSchema:schema32.properties.delimiter,data:data105};
if(vErrors === null){
vErrors = [err111];
}
else {
vErrors.push(err111);
}
errors++;
}
}
}
else {
const err112 = {instancePath:instancePath+"/text&code",schemaPath:"#/$defs/setup/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema32.type,parentSchema:schema32,data:data91};
if(vErrors === null){
vErrors = [err112];
}
else {
vErrors.push(err112);
}
errors++;
}
}
if(data.html !== undefined){
let data106 = data.html;
if(data106 && typeof data106 == "object" && !Array.isArray(data106)){
if(data106.suffix !== undefined){
let data107 = data106.suffix;
if(Array.isArray(data107)){
const len14 = data107.length;
for(let i14=0; i14<len14; i14++){
let data108 = data107[i14];
if(typeof data108 !== "string"){
const err113 = {instancePath:instancePath+"/html/suffix/" + i14,schemaPath:"#/$defs/setup/properties/suffix/items/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema32.properties.suffix.items.type,parentSchema:schema32.properties.suffix.items,data:data108};
if(vErrors === null){
vErrors = [err113];
}
else {
vErrors.push(err113);
}
errors++;
}
}
}
else {
const err114 = {instancePath:instancePath+"/html/suffix",schemaPath:"#/$defs/setup/properties/suffix/type",keyword:"type",params:{type: "array"},message:"must be array",schema:schema32.properties.suffix.type,parentSchema:schema32.properties.suffix,data:data107};
if(vErrors === null){
vErrors = [err114];
}
else {
vErrors.push(err114);
}
errors++;
}
}
if(data106.output_format !== undefined){
let data109 = data106.output_format;
if(!((((data109 === "json") || (data109 === "markdown")) || (data109 === "text")) || (data109 === "html"))){
const err115 = {instancePath:instancePath+"/html/output_format",schemaPath:"#/$defs/setup/properties/output_format/enum",keyword:"enum",params:{allowedValues: schema32.properties.output_format.enum},message:"must be equal to one of the allowed values",schema:schema32.properties.output_format.enum,parentSchema:schema32.properties.output_format,data:data109};
if(vErrors === null){
vErrors = [err115];
}
else {
vErrors.push(err115);
}
errors++;
}
}
if(data106.parse_method !== undefined){
let data110 = data106.parse_method;
if(typeof data110 !== "string"){
const err116 = {instancePath:instancePath+"/html/parse_method",schemaPath:"#/$defs/setup/properties/parse_method/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema32.properties.parse_method.type,parentSchema:schema32.properties.parse_method,data:data110};
if(vErrors === null){
vErrors = [err116];
}
else {
vErrors.push(err116);
}
errors++;
}
}
if(data106.lang !== undefined){
let data111 = data106.lang;
if(typeof data111 !== "string"){
const err117 = {instancePath:instancePath+"/html/lang",schemaPath:"#/$defs/setup/properties/lang/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema32.properties.lang.type,parentSchema:schema32.properties.lang,data:data111};
if(vErrors === null){
vErrors = [err117];
}
else {
vErrors.push(err117);
}
errors++;
}
}
if(data106.flatten_media_to_text !== undefined){
let data112 = data106.flatten_media_to_text;
if(typeof data112 !== "boolean"){
const err118 = {instancePath:instancePath+"/html/flatten_media_to_text",schemaPath:"#/$defs/setup/properties/flatten_media_to_text/type",keyword:"type",params:{type: "boolean"},message:"must be boolean",schema:schema32.properties.flatten_media_to_text.type,parentSchema:schema32.properties.flatten_media_to_text,data:data112};
if(vErrors === null){
vErrors = [err118];
}
else {
vErrors.push(err118);
}
errors++;
}
}
if(data106.remove_toc !== undefined){
let data113 = data106.remove_toc;
if(typeof data113 !== "boolean"){
const err119 = {instancePath:instancePath+"/html/remove_toc",schemaPath:"#/$defs/setup/properties/remove_toc/type",keyword:"type",params:{type: "boolean"},message:"must be boolean",schema:schema32.properties.remove_toc.type,parentSchema:schema32.properties.remove_toc,data:data113};
if(vErrors === null){
vErrors = [err119];
}
else {
vErrors.push(err119);
}
errors++;
}
}
if(data106.remove_header_footer !== undefined){
let data114 = data106.remove_header_footer;
if(typeof data114 !== "boolean"){
const err120 = {instancePath:instancePath+"/html/remove_header_footer",schemaPath:"#/$defs/setup/properties/remove_header_footer/type",keyword:"type",params:{type: "boolean"},message:"must be boolean",schema:schema32.properties.remove_header_footer.type,parentSchema:schema32.properties.remove_header_footer,data:data114};
if(vErrors === null){
vErrors = [err120];
}
else {
vErrors.push(err120);
}
errors++;
}
}
if(data106.vlm !== undefined){
let data115 = data106.vlm;
if(data115 && typeof data115 == "object" && !Array.isArray(data115)){
if(data115.llm_id !== undefined){
let data116 = data115.llm_id;
if(typeof data116 !== "string"){
const err121 = {instancePath:instancePath+"/html/vlm/llm_id",schemaPath:"#/$defs/setup/properties/vlm/properties/llm_id/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema32.properties.vlm.properties.llm_id.type,parentSchema:schema32.properties.vlm.properties.llm_id,data:data116};
if(vErrors === null){
vErrors = [err121];
}
else {
vErrors.push(err121);
}
errors++;
}
}
}
else {
const err122 = {instancePath:instancePath+"/html/vlm",schemaPath:"#/$defs/setup/properties/vlm/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema32.properties.vlm.type,parentSchema:schema32.properties.vlm,data:data115};
if(vErrors === null){
vErrors = [err122];
}
else {
vErrors.push(err122);
}
errors++;
}
}
if(data106.fields !== undefined){
let data117 = data106.fields;
if(Array.isArray(data117)){
const len15 = data117.length;
for(let i15=0; i15<len15; i15++){
let data118 = data117[i15];
if(typeof data118 !== "string"){
const err123 = {instancePath:instancePath+"/html/fields/" + i15,schemaPath:"#/$defs/setup/properties/fields/items/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema32.properties.fields.items.type,parentSchema:schema32.properties.fields.items,data:data118};
if(vErrors === null){
vErrors = [err123];
}
else {
vErrors.push(err123);
}
errors++;
}
}
}
else {
const err124 = {instancePath:instancePath+"/html/fields",schemaPath:"#/$defs/setup/properties/fields/type",keyword:"type",params:{type: "array"},message:"must be array",schema:schema32.properties.fields.type,parentSchema:schema32.properties.fields,data:data117};
if(vErrors === null){
vErrors = [err124];
}
else {
vErrors.push(err124);
}
errors++;
}
}
if(data106.chunk_token_num !== undefined){
let data119 = data106.chunk_token_num;
if(!((typeof data119 == "number") && (!(data119 % 1) && !isNaN(data119)))){
const err125 = {instancePath:instancePath+"/html/chunk_token_num",schemaPath:"#/$defs/setup/properties/chunk_token_num/type",keyword:"type",params:{type: "integer"},message:"must be integer",schema:schema32.properties.chunk_token_num.type,parentSchema:schema32.properties.chunk_token_num,data:data119};
if(vErrors === null){
vErrors = [err125];
}
else {
vErrors.push(err125);
}
errors++;
}
if(typeof data119 == "number"){
if(data119 < 1 || isNaN(data119)){
const err126 = {instancePath:instancePath+"/html/chunk_token_num",schemaPath:"#/$defs/setup/properties/chunk_token_num/minimum",keyword:"minimum",params:{comparison: ">=", limit: 1},message:"must be >= 1",schema:1,parentSchema:schema32.properties.chunk_token_num,data:data119};
if(vErrors === null){
vErrors = [err126];
}
else {
vErrors.push(err126);
}
errors++;
}
}
}
if(data106.delimiter !== undefined){
let data120 = data106.delimiter;
if(typeof data120 !== "string"){
const err127 = {instancePath:instancePath+"/html/delimiter",schemaPath:"#/$defs/setup/properties/delimiter/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema32.properties.delimiter.type,parentSchema:schema32.properties.delimiter,data:data120};
if(vErrors === null){
vErrors = [err127];
}
else {
vErrors.push(err127);
}
errors++;
}
}
}
else {
const err128 = {instancePath:instancePath+"/html",schemaPath:"#/$defs/setup/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema32.type,parentSchema:schema32,data:data106};
if(vErrors === null){
vErrors = [err128];
}
else {
vErrors.push(err128);
}
errors++;
}
}
if(data.slides !== undefined){
let data121 = data.slides;
if(data121 && typeof data121 == "object" && !Array.isArray(data121)){
if(data121.suffix !== undefined){
let data122 = data121.suffix;
if(Array.isArray(data122)){
const len16 = data122.length;
for(let i16=0; i16<len16; i16++){
let data123 = data122[i16];
if(typeof data123 !== "string"){
const err129 = {instancePath:instancePath+"/slides/suffix/" + i16,schemaPath:"#/$defs/setup/properties/suffix/items/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema32.properties.suffix.items.type,parentSchema:schema32.properties.suffix.items,data:data123};
if(vErrors === null){
vErrors = [err129];
}
else {
vErrors.push(err129);
}
errors++;
}
}
}
else {
const err130 = {instancePath:instancePath+"/slides/suffix",schemaPath:"#/$defs/setup/properties/suffix/type",keyword:"type",params:{type: "array"},message:"must be array",schema:schema32.properties.suffix.type,parentSchema:schema32.properties.suffix,data:data122};
if(vErrors === null){
vErrors = [err130];
}
else {
vErrors.push(err130);
}
errors++;
}
}
if(data121.output_format !== undefined){
let data124 = data121.output_format;
if(!((((data124 === "json") || (data124 === "markdown")) || (data124 === "text")) || (data124 === "html"))){
const err131 = {instancePath:instancePath+"/slides/output_format",schemaPath:"#/$defs/setup/properties/output_format/enum",keyword:"enum",params:{allowedValues: schema32.properties.output_format.enum},message:"must be equal to one of the allowed values",schema:schema32.properties.output_format.enum,parentSchema:schema32.properties.output_format,data:data124};
if(vErrors === null){
vErrors = [err131];
}
else {
vErrors.push(err131);
}
errors++;
}
}
if(data121.parse_method !== undefined){
let data125 = data121.parse_method;
if(typeof data125 !== "string"){
const err132 = {instancePath:instancePath+"/slides/parse_method",schemaPath:"#/$defs/setup/properties/parse_method/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema32.properties.parse_method.type,parentSchema:schema32.properties.parse_method,data:data125};
if(vErrors === null){
vErrors = [err132];
}
else {
vErrors.push(err132);
}
errors++;
}
}
if(data121.lang !== undefined){
let data126 = data121.lang;
if(typeof data126 !== "string"){
const err133 = {instancePath:instancePath+"/slides/lang",schemaPath:"#/$defs/setup/properties/lang/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema32.properties.lang.type,parentSchema:schema32.properties.lang,data:data126};
if(vErrors === null){
vErrors = [err133];
}
else {
vErrors.push(err133);
}
errors++;
}
}
if(data121.flatten_media_to_text !== undefined){
let data127 = data121.flatten_media_to_text;
if(typeof data127 !== "boolean"){
const err134 = {instancePath:instancePath+"/slides/flatten_media_to_text",schemaPath:"#/$defs/setup/properties/flatten_media_to_text/type",keyword:"type",params:{type: "boolean"},message:"must be boolean",schema:schema32.properties.flatten_media_to_text.type,parentSchema:schema32.properties.flatten_media_to_text,data:data127};
if(vErrors === null){
vErrors = [err134];
}
else {
vErrors.push(err134);
}
errors++;
}
}
if(data121.remove_toc !== undefined){
let data128 = data121.remove_toc;
if(typeof data128 !== "boolean"){
const err135 = {instancePath:instancePath+"/slides/remove_toc",schemaPath:"#/$defs/setup/properties/remove_toc/type",keyword:"type",params:{type: "boolean"},message:"must be boolean",schema:schema32.properties.remove_toc.type,parentSchema:schema32.properties.remove_toc,data:data128};
if(vErrors === null){
vErrors = [err135];
}
else {
vErrors.push(err135);
}
errors++;
}
}
if(data121.remove_header_footer !== undefined){
let data129 = data121.remove_header_footer;
if(typeof data129 !== "boolean"){
const err136 = {instancePath:instancePath+"/slides/remove_header_footer",schemaPath:"#/$defs/setup/properties/remove_header_footer/type",keyword:"type",params:{type: "boolean"},message:"must be boolean",schema:schema32.properties.remove_header_footer.type,parentSchema:schema32.properties.remove_header_footer,data:data129};
if(vErrors === null){
vErrors = [err136];
}
else {
vErrors.push(err136);
}
errors++;
}
}
if(data121.vlm !== undefined){
let data130 = data121.vlm;
if(data130 && typeof data130 == "object" && !Array.isArray(data130)){
if(data130.llm_id !== undefined){
let data131 = data130.llm_id;
if(typeof data131 !== "string"){
const err137 = {instancePath:instancePath+"/slides/vlm/llm_id",schemaPath:"#/$defs/setup/properties/vlm/properties/llm_id/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema32.properties.vlm.properties.llm_id.type,parentSchema:schema32.properties.vlm.properties.llm_id,data:data131};
if(vErrors === null){
vErrors = [err137];
}
else {
vErrors.push(err137);
}
errors++;
}
}
}
else {
const err138 = {instancePath:instancePath+"/slides/vlm",schemaPath:"#/$defs/setup/properties/vlm/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema32.properties.vlm.type,parentSchema:schema32.properties.vlm,data:data130};
if(vErrors === null){
vErrors = [err138];
}
else {
vErrors.push(err138);
}
errors++;
}
}
if(data121.fields !== undefined){
let data132 = data121.fields;
if(Array.isArray(data132)){
const len17 = data132.length;
for(let i17=0; i17<len17; i17++){
let data133 = data132[i17];
if(typeof data133 !== "string"){
const err139 = {instancePath:instancePath+"/slides/fields/" + i17,schemaPath:"#/$defs/setup/properties/fields/items/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema32.properties.fields.items.type,parentSchema:schema32.properties.fields.items,data:data133};
if(vErrors === null){
vErrors = [err139];
}
else {
vErrors.push(err139);
}
errors++;
}
}
}
else {
const err140 = {instancePath:instancePath+"/slides/fields",schemaPath:"#/$defs/setup/properties/fields/type",keyword:"type",params:{type: "array"},message:"must be array",schema:schema32.properties.fields.type,parentSchema:schema32.properties.fields,data:data132};
if(vErrors === null){
vErrors = [err140];
}
else {
vErrors.push(err140);
}
errors++;
}
}
if(data121.chunk_token_num !== undefined){
let data134 = data121.chunk_token_num;
if(!((typeof data134 == "number") && (!(data134 % 1) && !isNaN(data134)))){
const err141 = {instancePath:instancePath+"/slides/chunk_token_num",schemaPath:"#/$defs/setup/properties/chunk_token_num/type",keyword:"type",params:{type: "integer"},message:"must be integer",schema:schema32.properties.chunk_token_num.type,parentSchema:schema32.properties.chunk_token_num,data:data134};
if(vErrors === null){
vErrors = [err141];
}
else {
vErrors.push(err141);
}
errors++;
}
if(typeof data134 == "number"){
if(data134 < 1 || isNaN(data134)){
const err142 = {instancePath:instancePath+"/slides/chunk_token_num",schemaPath:"#/$defs/setup/properties/chunk_token_num/minimum",keyword:"minimum",params:{comparison: ">=", limit: 1},message:"must be >= 1",schema:1,parentSchema:schema32.properties.chunk_token_num,data:data134};
if(vErrors === null){
vErrors = [err142];
}
else {
vErrors.push(err142);
}
errors++;
}
}
}
if(data121.delimiter !== undefined){
let data135 = data121.delimiter;
if(typeof data135 !== "string"){
const err143 = {instancePath:instancePath+"/slides/delimiter",schemaPath:"#/$defs/setup/properties/delimiter/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema32.properties.delimiter.type,parentSchema:schema32.properties.delimiter,data:data135};
if(vErrors === null){
vErrors = [err143];
}
else {
vErrors.push(err143);
}
errors++;
}
}
}
else {
const err144 = {instancePath:instancePath+"/slides",schemaPath:"#/$defs/setup/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema32.type,parentSchema:schema32,data:data121};
if(vErrors === null){
vErrors = [err144];
}
else {
vErrors.push(err144);
}
errors++;
}
}
if(data.image !== undefined){
let data136 = data.image;
if(data136 && typeof data136 == "object" && !Array.isArray(data136)){
if(data136.suffix !== undefined){
let data137 = data136.suffix;
if(Array.isArray(data137)){
const len18 = data137.length;
for(let i18=0; i18<len18; i18++){
let data138 = data137[i18];
if(typeof data138 !== "string"){
const err145 = {instancePath:instancePath+"/image/suffix/" + i18,schemaPath:"#/$defs/setup/properties/suffix/items/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema32.properties.suffix.items.type,parentSchema:schema32.properties.suffix.items,data:data138};
if(vErrors === null){
vErrors = [err145];
}
else {
vErrors.push(err145);
}
errors++;
}
}
}
else {
const err146 = {instancePath:instancePath+"/image/suffix",schemaPath:"#/$defs/setup/properties/suffix/type",keyword:"type",params:{type: "array"},message:"must be array",schema:schema32.properties.suffix.type,parentSchema:schema32.properties.suffix,data:data137};
if(vErrors === null){
vErrors = [err146];
}
else {
vErrors.push(err146);
}
errors++;
}
}
if(data136.output_format !== undefined){
let data139 = data136.output_format;
if(!((((data139 === "json") || (data139 === "markdown")) || (data139 === "text")) || (data139 === "html"))){
const err147 = {instancePath:instancePath+"/image/output_format",schemaPath:"#/$defs/setup/properties/output_format/enum",keyword:"enum",params:{allowedValues: schema32.properties.output_format.enum},message:"must be equal to one of the allowed values",schema:schema32.properties.output_format.enum,parentSchema:schema32.properties.output_format,data:data139};
if(vErrors === null){
vErrors = [err147];
}
else {
vErrors.push(err147);
}
errors++;
}
}
if(data136.parse_method !== undefined){
let data140 = data136.parse_method;
if(typeof data140 !== "string"){
const err148 = {instancePath:instancePath+"/image/parse_method",schemaPath:"#/$defs/setup/properties/parse_method/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema32.properties.parse_method.type,parentSchema:schema32.properties.parse_method,data:data140};
if(vErrors === null){
vErrors = [err148];
}
else {
vErrors.push(err148);
}
errors++;
}
}
if(data136.lang !== undefined){
let data141 = data136.lang;
if(typeof data141 !== "string"){
const err149 = {instancePath:instancePath+"/image/lang",schemaPath:"#/$defs/setup/properties/lang/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema32.properties.lang.type,parentSchema:schema32.properties.lang,data:data141};
if(vErrors === null){
vErrors = [err149];
}
else {
vErrors.push(err149);
}
errors++;
}
}
if(data136.flatten_media_to_text !== undefined){
let data142 = data136.flatten_media_to_text;
if(typeof data142 !== "boolean"){
const err150 = {instancePath:instancePath+"/image/flatten_media_to_text",schemaPath:"#/$defs/setup/properties/flatten_media_to_text/type",keyword:"type",params:{type: "boolean"},message:"must be boolean",schema:schema32.properties.flatten_media_to_text.type,parentSchema:schema32.properties.flatten_media_to_text,data:data142};
if(vErrors === null){
vErrors = [err150];
}
else {
vErrors.push(err150);
}
errors++;
}
}
if(data136.remove_toc !== undefined){
let data143 = data136.remove_toc;
if(typeof data143 !== "boolean"){
const err151 = {instancePath:instancePath+"/image/remove_toc",schemaPath:"#/$defs/setup/properties/remove_toc/type",keyword:"type",params:{type: "boolean"},message:"must be boolean",schema:schema32.properties.remove_toc.type,parentSchema:schema32.properties.remove_toc,data:data143};
if(vErrors === null){
vErrors = [err151];
}
else {
vErrors.push(err151);
}
errors++;
}
}
if(data136.remove_header_footer !== undefined){
let data144 = data136.remove_header_footer;
if(typeof data144 !== "boolean"){
const err152 = {instancePath:instancePath+"/image/remove_header_footer",schemaPath:"#/$defs/setup/properties/remove_header_footer/type",keyword:"type",params:{type: "boolean"},message:"must be boolean",schema:schema32.properties.remove_header_footer.type,parentSchema:schema32.properties.remove_header_footer,data:data144};
if(vErrors === null){
vErrors = [err152];
}
else {
vErrors.push(err152);
}
errors++;
}
}
if(data136.vlm !== undefined){
let data145 = data136.vlm;
if(data145 && typeof data145 == "object" && !Array.isArray(data145)){
if(data145.llm_id !== undefined){
let data146 = data145.llm_id;
if(typeof data146 !== "string"){
const err153 = {instancePath:instancePath+"/image/vlm/llm_id",schemaPath:"#/$defs/setup/properties/vlm/properties/llm_id/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema32.properties.vlm.properties.llm_id.type,parentSchema:schema32.properties.vlm.properties.llm_id,data:data146};
if(vErrors === null){
vErrors = [err153];
}
else {
vErrors.push(err153);
}
errors++;
}
}
}
else {
const err154 = {instancePath:instancePath+"/image/vlm",schemaPath:"#/$defs/setup/properties/vlm/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema32.properties.vlm.type,parentSchema:schema32.properties.vlm,data:data145};
if(vErrors === null){
vErrors = [err154];
}
else {
vErrors.push(err154);
}
errors++;
}
}
if(data136.fields !== undefined){
let data147 = data136.fields;
if(Array.isArray(data147)){
const len19 = data147.length;
for(let i19=0; i19<len19; i19++){
let data148 = data147[i19];
if(typeof data148 !== "string"){
const err155 = {instancePath:instancePath+"/image/fields/" + i19,schemaPath:"#/$defs/setup/properties/fields/items/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema32.properties.fields.items.type,parentSchema:schema32.properties.fields.items,data:data148};
if(vErrors === null){
vErrors = [err155];
}
else {
vErrors.push(err155);
}
errors++;
}
}
}
else {
const err156 = {instancePath:instancePath+"/image/fields",schemaPath:"#/$defs/setup/properties/fields/type",keyword:"type",params:{type: "array"},message:"must be array",schema:schema32.properties.fields.type,parentSchema:schema32.properties.fields,data:data147};
if(vErrors === null){
vErrors = [err156];
}
else {
vErrors.push(err156);
}
errors++;
}
}
if(data136.chunk_token_num !== undefined){
let data149 = data136.chunk_token_num;
if(!((typeof data149 == "number") && (!(data149 % 1) && !isNaN(data149)))){
const err157 = {instancePath:instancePath+"/image/chunk_token_num",schemaPath:"#/$defs/setup/properties/chunk_token_num/type",keyword:"type",params:{type: "integer"},message:"must be integer",schema:schema32.properties.chunk_token_num.type,parentSchema:schema32.properties.chunk_token_num,data:data149};
if(vErrors === null){
vErrors = [err157];
}
else {
vErrors.push(err157);
}
errors++;
}
if(typeof data149 == "number"){
if(data149 < 1 || isNaN(data149)){
const err158 = {instancePath:instancePath+"/image/chunk_token_num",schemaPath:"#/$defs/setup/properties/chunk_token_num/minimum",keyword:"minimum",params:{comparison: ">=", limit: 1},message:"must be >= 1",schema:1,parentSchema:schema32.properties.chunk_token_num,data:data149};
if(vErrors === null){
vErrors = [err158];
}
else {
vErrors.push(err158);
}
errors++;
}
}
}
if(data136.delimiter !== undefined){
let data150 = data136.delimiter;
if(typeof data150 !== "string"){
const err159 = {instancePath:instancePath+"/image/delimiter",schemaPath:"#/$defs/setup/properties/delimiter/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema32.properties.delimiter.type,parentSchema:schema32.properties.delimiter,data:data150};
if(vErrors === null){
vErrors = [err159];
}
else {
vErrors.push(err159);
}
errors++;
}
}
}
else {
const err160 = {instancePath:instancePath+"/image",schemaPath:"#/$defs/setup/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema32.type,parentSchema:schema32,data:data136};
if(vErrors === null){
vErrors = [err160];
}
else {
vErrors.push(err160);
}
errors++;
}
}
if(data.email !== undefined){
let data151 = data.email;
if(data151 && typeof data151 == "object" && !Array.isArray(data151)){
if(data151.suffix !== undefined){
let data152 = data151.suffix;
if(Array.isArray(data152)){
const len20 = data152.length;
for(let i20=0; i20<len20; i20++){
let data153 = data152[i20];
if(typeof data153 !== "string"){
const err161 = {instancePath:instancePath+"/email/suffix/" + i20,schemaPath:"#/$defs/setup/properties/suffix/items/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema32.properties.suffix.items.type,parentSchema:schema32.properties.suffix.items,data:data153};
if(vErrors === null){
vErrors = [err161];
}
else {
vErrors.push(err161);
}
errors++;
}
}
}
else {
const err162 = {instancePath:instancePath+"/email/suffix",schemaPath:"#/$defs/setup/properties/suffix/type",keyword:"type",params:{type: "array"},message:"must be array",schema:schema32.properties.suffix.type,parentSchema:schema32.properties.suffix,data:data152};
if(vErrors === null){
vErrors = [err162];
}
else {
vErrors.push(err162);
}
errors++;
}
}
if(data151.output_format !== undefined){
let data154 = data151.output_format;
if(!((((data154 === "json") || (data154 === "markdown")) || (data154 === "text")) || (data154 === "html"))){
const err163 = {instancePath:instancePath+"/email/output_format",schemaPath:"#/$defs/setup/properties/output_format/enum",keyword:"enum",params:{allowedValues: schema32.properties.output_format.enum},message:"must be equal to one of the allowed values",schema:schema32.properties.output_format.enum,parentSchema:schema32.properties.output_format,data:data154};
if(vErrors === null){
vErrors = [err163];
}
else {
vErrors.push(err163);
}
errors++;
}
}
if(data151.parse_method !== undefined){
let data155 = data151.parse_method;
if(typeof data155 !== "string"){
const err164 = {instancePath:instancePath+"/email/parse_method",schemaPath:"#/$defs/setup/properties/parse_method/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema32.properties.parse_method.type,parentSchema:schema32.properties.parse_method,data:data155};
if(vErrors === null){
vErrors = [err164];
}
else {
vErrors.push(err164);
}
errors++;
}
}
if(data151.lang !== undefined){
let data156 = data151.lang;
if(typeof data156 !== "string"){
const err165 = {instancePath:instancePath+"/email/lang",schemaPath:"#/$defs/setup/properties/lang/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema32.properties.lang.type,parentSchema:schema32.properties.lang,data:data156};
if(vErrors === null){
vErrors = [err165];
}
else {
vErrors.push(err165);
}
errors++;
}
}
if(data151.flatten_media_to_text !== undefined){
let data157 = data151.flatten_media_to_text;
if(typeof data157 !== "boolean"){
const err166 = {instancePath:instancePath+"/email/flatten_media_to_text",schemaPath:"#/$defs/setup/properties/flatten_media_to_text/type",keyword:"type",params:{type: "boolean"},message:"must be boolean",schema:schema32.properties.flatten_media_to_text.type,parentSchema:schema32.properties.flatten_media_to_text,data:data157};
if(vErrors === null){
vErrors = [err166];
}
else {
vErrors.push(err166);
}
errors++;
}
}
if(data151.remove_toc !== undefined){
let data158 = data151.remove_toc;
if(typeof data158 !== "boolean"){
const err167 = {instancePath:instancePath+"/email/remove_toc",schemaPath:"#/$defs/setup/properties/remove_toc/type",keyword:"type",params:{type: "boolean"},message:"must be boolean",schema:schema32.properties.remove_toc.type,parentSchema:schema32.properties.remove_toc,data:data158};
if(vErrors === null){
vErrors = [err167];
}
else {
vErrors.push(err167);
}
errors++;
}
}
if(data151.remove_header_footer !== undefined){
let data159 = data151.remove_header_footer;
if(typeof data159 !== "boolean"){
const err168 = {instancePath:instancePath+"/email/remove_header_footer",schemaPath:"#/$defs/setup/properties/remove_header_footer/type",keyword:"type",params:{type: "boolean"},message:"must be boolean",schema:schema32.properties.remove_header_footer.type,parentSchema:schema32.properties.remove_header_footer,data:data159};
if(vErrors === null){
vErrors = [err168];
}
else {
vErrors.push(err168);
}
errors++;
}
}
if(data151.vlm !== undefined){
let data160 = data151.vlm;
if(data160 && typeof data160 == "object" && !Array.isArray(data160)){
if(data160.llm_id !== undefined){
let data161 = data160.llm_id;
if(typeof data161 !== "string"){
const err169 = {instancePath:instancePath+"/email/vlm/llm_id",schemaPath:"#/$defs/setup/properties/vlm/properties/llm_id/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema32.properties.vlm.properties.llm_id.type,parentSchema:schema32.properties.vlm.properties.llm_id,data:data161};
if(vErrors === null){
vErrors = [err169];
}
else {
vErrors.push(err169);
}
errors++;
}
}
}
else {
const err170 = {instancePath:instancePath+"/email/vlm",schemaPath:"#/$defs/setup/properties/vlm/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema32.properties.vlm.type,parentSchema:schema32.properties.vlm,data:data160};
if(vErrors === null){
vErrors = [err170];
}
else {
vErrors.push(err170);
}
errors++;
}
}
if(data151.fields !== undefined){
let data162 = data151.fields;
if(Array.isArray(data162)){
const len21 = data162.length;
for(let i21=0; i21<len21; i21++){
let data163 = data162[i21];
if(typeof data163 !== "string"){
const err171 = {instancePath:instancePath+"/email/fields/" + i21,schemaPath:"#/$defs/setup/properties/fields/items/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema32.properties.fields.items.type,parentSchema:schema32.properties.fields.items,data:data163};
if(vErrors === null){
vErrors = [err171];
}
else {
vErrors.push(err171);
}
errors++;
}
}
}
else {
const err172 = {instancePath:instancePath+"/email/fields",schemaPath:"#/$defs/setup/properties/fields/type",keyword:"type",params:{type: "array"},message:"must be array",schema:schema32.properties.fields.type,parentSchema:schema32.properties.fields,data:data162};
if(vErrors === null){
vErrors = [err172];
}
else {
vErrors.push(err172);
}
errors++;
}
}
if(data151.chunk_token_num !== undefined){
let data164 = data151.chunk_token_num;
if(!((typeof data164 == "number") && (!(data164 % 1) && !isNaN(data164)))){
const err173 = {instancePath:instancePath+"/email/chunk_token_num",schemaPath:"#/$defs/setup/properties/chunk_token_num/type",keyword:"type",params:{type: "integer"},message:"must be integer",schema:schema32.properties.chunk_token_num.type,parentSchema:schema32.properties.chunk_token_num,data:data164};
if(vErrors === null){
vErrors = [err173];
}
else {
vErrors.push(err173);
}
errors++;
}
if(typeof data164 == "number"){
if(data164 < 1 || isNaN(data164)){
const err174 = {instancePath:instancePath+"/email/chunk_token_num",schemaPath:"#/$defs/setup/properties/chunk_token_num/minimum",keyword:"minimum",params:{comparison: ">=", limit: 1},message:"must be >= 1",schema:1,parentSchema:schema32.properties.chunk_token_num,data:data164};
if(vErrors === null){
vErrors = [err174];
}
else {
vErrors.push(err174);
}
errors++;
}
}
}
if(data151.delimiter !== undefined){
let data165 = data151.delimiter;
if(typeof data165 !== "string"){
const err175 = {instancePath:instancePath+"/email/delimiter",schemaPath:"#/$defs/setup/properties/delimiter/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema32.properties.delimiter.type,parentSchema:schema32.properties.delimiter,data:data165};
if(vErrors === null){
vErrors = [err175];
}
else {
vErrors.push(err175);
}
errors++;
}
}
}
else {
const err176 = {instancePath:instancePath+"/email",schemaPath:"#/$defs/setup/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema32.type,parentSchema:schema32,data:data151};
if(vErrors === null){
vErrors = [err176];
}
else {
vErrors.push(err176);
}
errors++;
}
}
if(data.audio !== undefined){
let data166 = data.audio;
if(data166 && typeof data166 == "object" && !Array.isArray(data166)){
if(data166.suffix !== undefined){
let data167 = data166.suffix;
if(Array.isArray(data167)){
const len22 = data167.length;
for(let i22=0; i22<len22; i22++){
let data168 = data167[i22];
if(typeof data168 !== "string"){
const err177 = {instancePath:instancePath+"/audio/suffix/" + i22,schemaPath:"#/$defs/setup/properties/suffix/items/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema32.properties.suffix.items.type,parentSchema:schema32.properties.suffix.items,data:data168};
if(vErrors === null){
vErrors = [err177];
}
else {
vErrors.push(err177);
}
errors++;
}
}
}
else {
const err178 = {instancePath:instancePath+"/audio/suffix",schemaPath:"#/$defs/setup/properties/suffix/type",keyword:"type",params:{type: "array"},message:"must be array",schema:schema32.properties.suffix.type,parentSchema:schema32.properties.suffix,data:data167};
if(vErrors === null){
vErrors = [err178];
}
else {
vErrors.push(err178);
}
errors++;
}
}
if(data166.output_format !== undefined){
let data169 = data166.output_format;
if(!((((data169 === "json") || (data169 === "markdown")) || (data169 === "text")) || (data169 === "html"))){
const err179 = {instancePath:instancePath+"/audio/output_format",schemaPath:"#/$defs/setup/properties/output_format/enum",keyword:"enum",params:{allowedValues: schema32.properties.output_format.enum},message:"must be equal to one of the allowed values",schema:schema32.properties.output_format.enum,parentSchema:schema32.properties.output_format,data:data169};
if(vErrors === null){
vErrors = [err179];
}
else {
vErrors.push(err179);
}
errors++;
}
}
if(data166.parse_method !== undefined){
let data170 = data166.parse_method;
if(typeof data170 !== "string"){
const err180 = {instancePath:instancePath+"/audio/parse_method",schemaPath:"#/$defs/setup/properties/parse_method/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema32.properties.parse_method.type,parentSchema:schema32.properties.parse_method,data:data170};
if(vErrors === null){
vErrors = [err180];
}
else {
vErrors.push(err180);
}
errors++;
}
}
if(data166.lang !== undefined){
let data171 = data166.lang;
if(typeof data171 !== "string"){
const err181 = {instancePath:instancePath+"/audio/lang",schemaPath:"#/$defs/setup/properties/lang/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema32.properties.lang.type,parentSchema:schema32.properties.lang,data:data171};
if(vErrors === null){
vErrors = [err181];
}
else {
vErrors.push(err181);
}
errors++;
}
}
if(data166.flatten_media_to_text !== undefined){
let data172 = data166.flatten_media_to_text;
if(typeof data172 !== "boolean"){
const err182 = {instancePath:instancePath+"/audio/flatten_media_to_text",schemaPath:"#/$defs/setup/properties/flatten_media_to_text/type",keyword:"type",params:{type: "boolean"},message:"must be boolean",schema:schema32.properties.flatten_media_to_text.type,parentSchema:schema32.properties.flatten_media_to_text,data:data172};
if(vErrors === null){
vErrors = [err182];
}
else {
vErrors.push(err182);
}
errors++;
}
}
if(data166.remove_toc !== undefined){
let data173 = data166.remove_toc;
if(typeof data173 !== "boolean"){
const err183 = {instancePath:instancePath+"/audio/remove_toc",schemaPath:"#/$defs/setup/properties/remove_toc/type",keyword:"type",params:{type: "boolean"},message:"must be boolean",schema:schema32.properties.remove_toc.type,parentSchema:schema32.properties.remove_toc,data:data173};
if(vErrors === null){
vErrors = [err183];
}
else {
vErrors.push(err183);
}
errors++;
}
}
if(data166.remove_header_footer !== undefined){
let data174 = data166.remove_header_footer;
if(typeof data174 !== "boolean"){
const err184 = {instancePath:instancePath+"/audio/remove_header_footer",schemaPath:"#/$defs/setup/properties/remove_header_footer/type",keyword:"type",params:{type: "boolean"},message:"must be boolean",schema:schema32.properties.remove_header_footer.type,parentSchema:schema32.properties.remove_header_footer,data:data174};
if(vErrors === null){
vErrors = [err184];
}
else {
vErrors.push(err184);
}
errors++;
}
}
if(data166.vlm !== undefined){
let data175 = data166.vlm;
if(data175 && typeof data175 == "object" && !Array.isArray(data175)){
if(data175.llm_id !== undefined){
let data176 = data175.llm_id;
if(typeof data176 !== "string"){
const err185 = {instancePath:instancePath+"/audio/vlm/llm_id",schemaPath:"#/$defs/setup/properties/vlm/properties/llm_id/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema32.properties.vlm.properties.llm_id.type,parentSchema:schema32.properties.vlm.properties.llm_id,data:data176};
if(vErrors === null){
vErrors = [err185];
}
else {
vErrors.push(err185);
}
errors++;
}
}
}
else {
const err186 = {instancePath:instancePath+"/audio/vlm",schemaPath:"#/$defs/setup/properties/vlm/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema32.properties.vlm.type,parentSchema:schema32.properties.vlm,data:data175};
if(vErrors === null){
vErrors = [err186];
}
else {
vErrors.push(err186);
}
errors++;
}
}
if(data166.fields !== undefined){
let data177 = data166.fields;
if(Array.isArray(data177)){
const len23 = data177.length;
for(let i23=0; i23<len23; i23++){
let data178 = data177[i23];
if(typeof data178 !== "string"){
const err187 = {instancePath:instancePath+"/audio/fields/" + i23,schemaPath:"#/$defs/setup/properties/fields/items/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema32.properties.fields.items.type,parentSchema:schema32.properties.fields.items,data:data178};
if(vErrors === null){
vErrors = [err187];
}
else {
vErrors.push(err187);
}
errors++;
}
}
}
else {
const err188 = {instancePath:instancePath+"/audio/fields",schemaPath:"#/$defs/setup/properties/fields/type",keyword:"type",params:{type: "array"},message:"must be array",schema:schema32.properties.fields.type,parentSchema:schema32.properties.fields,data:data177};
if(vErrors === null){
vErrors = [err188];
}
else {
vErrors.push(err188);
}
errors++;
}
}
if(data166.chunk_token_num !== undefined){
let data179 = data166.chunk_token_num;
if(!((typeof data179 == "number") && (!(data179 % 1) && !isNaN(data179)))){
const err189 = {instancePath:instancePath+"/audio/chunk_token_num",schemaPath:"#/$defs/setup/properties/chunk_token_num/type",keyword:"type",params:{type: "integer"},message:"must be integer",schema:schema32.properties.chunk_token_num.type,parentSchema:schema32.properties.chunk_token_num,data:data179};
if(vErrors === null){
vErrors = [err189];
}
else {
vErrors.push(err189);
}
errors++;
}
if(typeof data179 == "number"){
if(data179 < 1 || isNaN(data179)){
const err190 = {instancePath:instancePath+"/audio/chunk_token_num",schemaPath:"#/$defs/setup/properties/chunk_token_num/minimum",keyword:"minimum",params:{comparison: ">=", limit: 1},message:"must be >= 1",schema:1,parentSchema:schema32.properties.chunk_token_num,data:data179};
if(vErrors === null){
vErrors = [err190];
}
else {
vErrors.push(err190);
}
errors++;
}
}
}
if(data166.delimiter !== undefined){
let data180 = data166.delimiter;
if(typeof data180 !== "string"){
const err191 = {instancePath:instancePath+"/audio/delimiter",schemaPath:"#/$defs/setup/properties/delimiter/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema32.properties.delimiter.type,parentSchema:schema32.properties.delimiter,data:data180};
if(vErrors === null){
vErrors = [err191];
}
else {
vErrors.push(err191);
}
errors++;
}
}
}
else {
const err192 = {instancePath:instancePath+"/audio",schemaPath:"#/$defs/setup/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema32.type,parentSchema:schema32,data:data166};
if(vErrors === null){
vErrors = [err192];
}
else {
vErrors.push(err192);
}
errors++;
}
}
if(data.video !== undefined){
let data181 = data.video;
if(data181 && typeof data181 == "object" && !Array.isArray(data181)){
if(data181.suffix !== undefined){
let data182 = data181.suffix;
if(Array.isArray(data182)){
const len24 = data182.length;
for(let i24=0; i24<len24; i24++){
let data183 = data182[i24];
if(typeof data183 !== "string"){
const err193 = {instancePath:instancePath+"/video/suffix/" + i24,schemaPath:"#/$defs/setup/properties/suffix/items/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema32.properties.suffix.items.type,parentSchema:schema32.properties.suffix.items,data:data183};
if(vErrors === null){
vErrors = [err193];
}
else {
vErrors.push(err193);
}
errors++;
}
}
}
else {
const err194 = {instancePath:instancePath+"/video/suffix",schemaPath:"#/$defs/setup/properties/suffix/type",keyword:"type",params:{type: "array"},message:"must be array",schema:schema32.properties.suffix.type,parentSchema:schema32.properties.suffix,data:data182};
if(vErrors === null){
vErrors = [err194];
}
else {
vErrors.push(err194);
}
errors++;
}
}
if(data181.output_format !== undefined){
let data184 = data181.output_format;
if(!((((data184 === "json") || (data184 === "markdown")) || (data184 === "text")) || (data184 === "html"))){
const err195 = {instancePath:instancePath+"/video/output_format",schemaPath:"#/$defs/setup/properties/output_format/enum",keyword:"enum",params:{allowedValues: schema32.properties.output_format.enum},message:"must be equal to one of the allowed values",schema:schema32.properties.output_format.enum,parentSchema:schema32.properties.output_format,data:data184};
if(vErrors === null){
vErrors = [err195];
}
else {
vErrors.push(err195);
}
errors++;
}
}
if(data181.parse_method !== undefined){
let data185 = data181.parse_method;
if(typeof data185 !== "string"){
const err196 = {instancePath:instancePath+"/video/parse_method",schemaPath:"#/$defs/setup/properties/parse_method/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema32.properties.parse_method.type,parentSchema:schema32.properties.parse_method,data:data185};
if(vErrors === null){
vErrors = [err196];
}
else {
vErrors.push(err196);
}
errors++;
}
}
if(data181.lang !== undefined){
let data186 = data181.lang;
if(typeof data186 !== "string"){
const err197 = {instancePath:instancePath+"/video/lang",schemaPath:"#/$defs/setup/properties/lang/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema32.properties.lang.type,parentSchema:schema32.properties.lang,data:data186};
if(vErrors === null){
vErrors = [err197];
}
else {
vErrors.push(err197);
}
errors++;
}
}
if(data181.flatten_media_to_text !== undefined){
let data187 = data181.flatten_media_to_text;
if(typeof data187 !== "boolean"){
const err198 = {instancePath:instancePath+"/video/flatten_media_to_text",schemaPath:"#/$defs/setup/properties/flatten_media_to_text/type",keyword:"type",params:{type: "boolean"},message:"must be boolean",schema:schema32.properties.flatten_media_to_text.type,parentSchema:schema32.properties.flatten_media_to_text,data:data187};
if(vErrors === null){
vErrors = [err198];
}
else {
vErrors.push(err198);
}
errors++;
}
}
if(data181.remove_toc !== undefined){
let data188 = data181.remove_toc;
if(typeof data188 !== "boolean"){
const err199 = {instancePath:instancePath+"/video/remove_toc",schemaPath:"#/$defs/setup/properties/remove_toc/type",keyword:"type",params:{type: "boolean"},message:"must be boolean",schema:schema32.properties.remove_toc.type,parentSchema:schema32.properties.remove_toc,data:data188};
if(vErrors === null){
vErrors = [err199];
}
else {
vErrors.push(err199);
}
errors++;
}
}
if(data181.remove_header_footer !== undefined){
let data189 = data181.remove_header_footer;
if(typeof data189 !== "boolean"){
const err200 = {instancePath:instancePath+"/video/remove_header_footer",schemaPath:"#/$defs/setup/properties/remove_header_footer/type",keyword:"type",params:{type: "boolean"},message:"must be boolean",schema:schema32.properties.remove_header_footer.type,parentSchema:schema32.properties.remove_header_footer,data:data189};
if(vErrors === null){
vErrors = [err200];
}
else {
vErrors.push(err200);
}
errors++;
}
}
if(data181.vlm !== undefined){
let data190 = data181.vlm;
if(data190 && typeof data190 == "object" && !Array.isArray(data190)){
if(data190.llm_id !== undefined){
let data191 = data190.llm_id;
if(typeof data191 !== "string"){
const err201 = {instancePath:instancePath+"/video/vlm/llm_id",schemaPath:"#/$defs/setup/properties/vlm/properties/llm_id/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema32.properties.vlm.properties.llm_id.type,parentSchema:schema32.properties.vlm.properties.llm_id,data:data191};
if(vErrors === null){
vErrors = [err201];
}
else {
vErrors.push(err201);
}
errors++;
}
}
}
else {
const err202 = {instancePath:instancePath+"/video/vlm",schemaPath:"#/$defs/setup/properties/vlm/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema32.properties.vlm.type,parentSchema:schema32.properties.vlm,data:data190};
if(vErrors === null){
vErrors = [err202];
}
else {
vErrors.push(err202);
}
errors++;
}
}
if(data181.fields !== undefined){
let data192 = data181.fields;
if(Array.isArray(data192)){
const len25 = data192.length;
for(let i25=0; i25<len25; i25++){
let data193 = data192[i25];
if(typeof data193 !== "string"){
const err203 = {instancePath:instancePath+"/video/fields/" + i25,schemaPath:"#/$defs/setup/properties/fields/items/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema32.properties.fields.items.type,parentSchema:schema32.properties.fields.items,data:data193};
if(vErrors === null){
vErrors = [err203];
}
else {
vErrors.push(err203);
}
errors++;
}
}
}
else {
const err204 = {instancePath:instancePath+"/video/fields",schemaPath:"#/$defs/setup/properties/fields/type",keyword:"type",params:{type: "array"},message:"must be array",schema:schema32.properties.fields.type,parentSchema:schema32.properties.fields,data:data192};
if(vErrors === null){
vErrors = [err204];
}
else {
vErrors.push(err204);
}
errors++;
}
}
if(data181.chunk_token_num !== undefined){
let data194 = data181.chunk_token_num;
if(!((typeof data194 == "number") && (!(data194 % 1) && !isNaN(data194)))){
const err205 = {instancePath:instancePath+"/video/chunk_token_num",schemaPath:"#/$defs/setup/properties/chunk_token_num/type",keyword:"type",params:{type: "integer"},message:"must be integer",schema:schema32.properties.chunk_token_num.type,parentSchema:schema32.properties.chunk_token_num,data:data194};
if(vErrors === null){
vErrors = [err205];
}
else {
vErrors.push(err205);
}
errors++;
}
if(typeof data194 == "number"){
if(data194 < 1 || isNaN(data194)){
const err206 = {instancePath:instancePath+"/video/chunk_token_num",schemaPath:"#/$defs/setup/properties/chunk_token_num/minimum",keyword:"minimum",params:{comparison: ">=", limit: 1},message:"must be >= 1",schema:1,parentSchema:schema32.properties.chunk_token_num,data:data194};
if(vErrors === null){
vErrors = [err206];
}
else {
vErrors.push(err206);
}
errors++;
}
}
}
if(data181.delimiter !== undefined){
let data195 = data181.delimiter;
if(typeof data195 !== "string"){
const err207 = {instancePath:instancePath+"/video/delimiter",schemaPath:"#/$defs/setup/properties/delimiter/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema32.properties.delimiter.type,parentSchema:schema32.properties.delimiter,data:data195};
if(vErrors === null){
vErrors = [err207];
}
else {
vErrors.push(err207);
}
errors++;
}
}
}
else {
const err208 = {instancePath:instancePath+"/video",schemaPath:"#/$defs/setup/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema32.type,parentSchema:schema32,data:data181};
if(vErrors === null){
vErrors = [err208];
}
else {
vErrors.push(err208);
}
errors++;
}
}
if(data.epub !== undefined){
let data196 = data.epub;
if(data196 && typeof data196 == "object" && !Array.isArray(data196)){
if(data196.suffix !== undefined){
let data197 = data196.suffix;
if(Array.isArray(data197)){
const len26 = data197.length;
for(let i26=0; i26<len26; i26++){
let data198 = data197[i26];
if(typeof data198 !== "string"){
const err209 = {instancePath:instancePath+"/epub/suffix/" + i26,schemaPath:"#/$defs/setup/properties/suffix/items/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema32.properties.suffix.items.type,parentSchema:schema32.properties.suffix.items,data:data198};
if(vErrors === null){
vErrors = [err209];
}
else {
vErrors.push(err209);
}
errors++;
}
}
}
else {
const err210 = {instancePath:instancePath+"/epub/suffix",schemaPath:"#/$defs/setup/properties/suffix/type",keyword:"type",params:{type: "array"},message:"must be array",schema:schema32.properties.suffix.type,parentSchema:schema32.properties.suffix,data:data197};
if(vErrors === null){
vErrors = [err210];
}
else {
vErrors.push(err210);
}
errors++;
}
}
if(data196.output_format !== undefined){
let data199 = data196.output_format;
if(!((((data199 === "json") || (data199 === "markdown")) || (data199 === "text")) || (data199 === "html"))){
const err211 = {instancePath:instancePath+"/epub/output_format",schemaPath:"#/$defs/setup/properties/output_format/enum",keyword:"enum",params:{allowedValues: schema32.properties.output_format.enum},message:"must be equal to one of the allowed values",schema:schema32.properties.output_format.enum,parentSchema:schema32.properties.output_format,data:data199};
if(vErrors === null){
vErrors = [err211];
}
else {
vErrors.push(err211);
}
errors++;
}
}
if(data196.parse_method !== undefined){
let data200 = data196.parse_method;
if(typeof data200 !== "string"){
const err212 = {instancePath:instancePath+"/epub/parse_method",schemaPath:"#/$defs/setup/properties/parse_method/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema32.properties.parse_method.type,parentSchema:schema32.properties.parse_method,data:data200};
if(vErrors === null){
vErrors = [err212];
}
else {
vErrors.push(err212);
}
errors++;
}
}
if(data196.lang !== undefined){
let data201 = data196.lang;
if(typeof data201 !== "string"){
const err213 = {instancePath:instancePath+"/epub/lang",schemaPath:"#/$defs/setup/properties/lang/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema32.properties.lang.type,parentSchema:schema32.properties.lang,data:data201};
if(vErrors === null){
vErrors = [err213];
}
else {
vErrors.push(err213);
}
errors++;
}
}
if(data196.flatten_media_to_text !== undefined){
let data202 = data196.flatten_media_to_text;
if(typeof data202 !== "boolean"){
const err214 = {instancePath:instancePath+"/epub/flatten_media_to_text",schemaPath:"#/$defs/setup/properties/flatten_media_to_text/type",keyword:"type",params:{type: "boolean"},message:"must be boolean",schema:schema32.properties.flatten_media_to_text.type,parentSchema:schema32.properties.flatten_media_to_text,data:data202};
if(vErrors === null){
vErrors = [err214];
}
else {
vErrors.push(err214);
}
errors++;
}
}
if(data196.remove_toc !== undefined){
let data203 = data196.remove_toc;
if(typeof data203 !== "boolean"){
const err215 = {instancePath:instancePath+"/epub/remove_toc",schemaPath:"#/$defs/setup/properties/remove_toc/type",keyword:"type",params:{type: "boolean"},message:"must be boolean",schema:schema32.properties.remove_toc.type,parentSchema:schema32.properties.remove_toc,data:data203};
if(vErrors === null){
vErrors = [err215];
}
else {
vErrors.push(err215);
}
errors++;
}
}
if(data196.remove_header_footer !== undefined){
let data204 = data196.remove_header_footer;
if(typeof data204 !== "boolean"){
const err216 = {instancePath:instancePath+"/epub/remove_header_footer",schemaPath:"#/$defs/setup/properties/remove_header_footer/type",keyword:"type",params:{type: "boolean"},message:"must be boolean",schema:schema32.properties.remove_header_footer.type,parentSchema:schema32.properties.remove_header_footer,data:data204};
if(vErrors === null){
vErrors = [err216];
}
else {
vErrors.push(err216);
}
errors++;
}
}
if(data196.vlm !== undefined){
let data205 = data196.vlm;
if(data205 && typeof data205 == "object" && !Array.isArray(data205)){
if(data205.llm_id !== undefined){
let data206 = data205.llm_id;
if(typeof data206 !== "string"){
const err217 = {instancePath:instancePath+"/epub/vlm/llm_id",schemaPath:"#/$defs/setup/properties/vlm/properties/llm_id/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema32.properties.vlm.properties.llm_id.type,parentSchema:schema32.properties.vlm.properties.llm_id,data:data206};
if(vErrors === null){
vErrors = [err217];
}
else {
vErrors.push(err217);
}
errors++;
}
}
}
else {
const err218 = {instancePath:instancePath+"/epub/vlm",schemaPath:"#/$defs/setup/properties/vlm/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema32.properties.vlm.type,parentSchema:schema32.properties.vlm,data:data205};
if(vErrors === null){
vErrors = [err218];
}
else {
vErrors.push(err218);
}
errors++;
}
}
if(data196.fields !== undefined){
let data207 = data196.fields;
if(Array.isArray(data207)){
const len27 = data207.length;
for(let i27=0; i27<len27; i27++){
let data208 = data207[i27];
if(typeof data208 !== "string"){
const err219 = {instancePath:instancePath+"/epub/fields/" + i27,schemaPath:"#/$defs/setup/properties/fields/items/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema32.properties.fields.items.type,parentSchema:schema32.properties.fields.items,data:data208};
if(vErrors === null){
vErrors = [err219];
}
else {
vErrors.push(err219);
}
errors++;
}
}
}
else {
const err220 = {instancePath:instancePath+"/epub/fields",schemaPath:"#/$defs/setup/properties/fields/type",keyword:"type",params:{type: "array"},message:"must be array",schema:schema32.properties.fields.type,parentSchema:schema32.properties.fields,data:data207};
if(vErrors === null){
vErrors = [err220];
}
else {
vErrors.push(err220);
}
errors++;
}
}
if(data196.chunk_token_num !== undefined){
let data209 = data196.chunk_token_num;
if(!((typeof data209 == "number") && (!(data209 % 1) && !isNaN(data209)))){
const err221 = {instancePath:instancePath+"/epub/chunk_token_num",schemaPath:"#/$defs/setup/properties/chunk_token_num/type",keyword:"type",params:{type: "integer"},message:"must be integer",schema:schema32.properties.chunk_token_num.type,parentSchema:schema32.properties.chunk_token_num,data:data209};
if(vErrors === null){
vErrors = [err221];
}
else {
vErrors.push(err221);
}
errors++;
}
if(typeof data209 == "number"){
if(data209 < 1 || isNaN(data209)){
const err222 = {instancePath:instancePath+"/epub/chunk_token_num",schemaPath:"#/$defs/setup/properties/chunk_token_num/minimum",keyword:"minimum",params:{comparison: ">=", limit: 1},message:"must be >= 1",schema:1,parentSchema:schema32.properties.chunk_token_num,data:data209};
if(vErrors === null){
vErrors = [err222];
}
else {
vErrors.push(err222);
}
errors++;
}
}
}
if(data196.delimiter !== undefined){
let data210 = data196.delimiter;
if(typeof data210 !== "string"){
const err223 = {instancePath:instancePath+"/epub/delimiter",schemaPath:"#/$defs/setup/properties/delimiter/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema32.properties.delimiter.type,parentSchema:schema32.properties.delimiter,data:data210};
if(vErrors === null){
vErrors = [err223];
}
else {
vErrors.push(err223);
}
errors++;
}
}
}
else {
const err224 = {instancePath:instancePath+"/epub",schemaPath:"#/$defs/setup/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema32.type,parentSchema:schema32,data:data196};
if(vErrors === null){
vErrors = [err224];
}
else {
vErrors.push(err224);
}
errors++;
}
}
if(data.json !== undefined){
let data211 = data.json;
if(data211 && typeof data211 == "object" && !Array.isArray(data211)){
if(data211.suffix !== undefined){
let data212 = data211.suffix;
if(Array.isArray(data212)){
const len28 = data212.length;
for(let i28=0; i28<len28; i28++){
let data213 = data212[i28];
if(typeof data213 !== "string"){
const err225 = {instancePath:instancePath+"/json/suffix/" + i28,schemaPath:"#/$defs/setup/properties/suffix/items/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema32.properties.suffix.items.type,parentSchema:schema32.properties.suffix.items,data:data213};
if(vErrors === null){
vErrors = [err225];
}
else {
vErrors.push(err225);
}
errors++;
}
}
}
else {
const err226 = {instancePath:instancePath+"/json/suffix",schemaPath:"#/$defs/setup/properties/suffix/type",keyword:"type",params:{type: "array"},message:"must be array",schema:schema32.properties.suffix.type,parentSchema:schema32.properties.suffix,data:data212};
if(vErrors === null){
vErrors = [err226];
}
else {
vErrors.push(err226);
}
errors++;
}
}
if(data211.output_format !== undefined){
let data214 = data211.output_format;
if(!((((data214 === "json") || (data214 === "markdown")) || (data214 === "text")) || (data214 === "html"))){
const err227 = {instancePath:instancePath+"/json/output_format",schemaPath:"#/$defs/setup/properties/output_format/enum",keyword:"enum",params:{allowedValues: schema32.properties.output_format.enum},message:"must be equal to one of the allowed values",schema:schema32.properties.output_format.enum,parentSchema:schema32.properties.output_format,data:data214};
if(vErrors === null){
vErrors = [err227];
}
else {
vErrors.push(err227);
}
errors++;
}
}
if(data211.parse_method !== undefined){
let data215 = data211.parse_method;
if(typeof data215 !== "string"){
const err228 = {instancePath:instancePath+"/json/parse_method",schemaPath:"#/$defs/setup/properties/parse_method/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema32.properties.parse_method.type,parentSchema:schema32.properties.parse_method,data:data215};
if(vErrors === null){
vErrors = [err228];
}
else {
vErrors.push(err228);
}
errors++;
}
}
if(data211.lang !== undefined){
let data216 = data211.lang;
if(typeof data216 !== "string"){
const err229 = {instancePath:instancePath+"/json/lang",schemaPath:"#/$defs/setup/properties/lang/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema32.properties.lang.type,parentSchema:schema32.properties.lang,data:data216};
if(vErrors === null){
vErrors = [err229];
}
else {
vErrors.push(err229);
}
errors++;
}
}
if(data211.flatten_media_to_text !== undefined){
let data217 = data211.flatten_media_to_text;
if(typeof data217 !== "boolean"){
const err230 = {instancePath:instancePath+"/json/flatten_media_to_text",schemaPath:"#/$defs/setup/properties/flatten_media_to_text/type",keyword:"type",params:{type: "boolean"},message:"must be boolean",schema:schema32.properties.flatten_media_to_text.type,parentSchema:schema32.properties.flatten_media_to_text,data:data217};
if(vErrors === null){
vErrors = [err230];
}
else {
vErrors.push(err230);
}
errors++;
}
}
if(data211.remove_toc !== undefined){
let data218 = data211.remove_toc;
if(typeof data218 !== "boolean"){
const err231 = {instancePath:instancePath+"/json/remove_toc",schemaPath:"#/$defs/setup/properties/remove_toc/type",keyword:"type",params:{type: "boolean"},message:"must be boolean",schema:schema32.properties.remove_toc.type,parentSchema:schema32.properties.remove_toc,data:data218};
if(vErrors === null){
vErrors = [err231];
}
else {
vErrors.push(err231);
}
errors++;
}
}
if(data211.remove_header_footer !== undefined){
let data219 = data211.remove_header_footer;
if(typeof data219 !== "boolean"){
const err232 = {instancePath:instancePath+"/json/remove_header_footer",schemaPath:"#/$defs/setup/properties/remove_header_footer/type",keyword:"type",params:{type: "boolean"},message:"must be boolean",schema:schema32.properties.remove_header_footer.type,parentSchema:schema32.properties.remove_header_footer,data:data219};
if(vErrors === null){
vErrors = [err232];
}
else {
vErrors.push(err232);
}
errors++;
}
}
if(data211.vlm !== undefined){
let data220 = data211.vlm;
if(data220 && typeof data220 == "object" && !Array.isArray(data220)){
if(data220.llm_id !== undefined){
let data221 = data220.llm_id;
if(typeof data221 !== "string"){
const err233 = {instancePath:instancePath+"/json/vlm/llm_id",schemaPath:"#/$defs/setup/properties/vlm/properties/llm_id/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema32.properties.vlm.properties.llm_id.type,parentSchema:schema32.properties.vlm.properties.llm_id,data:data221};
if(vErrors === null){
vErrors = [err233];
}
else {
vErrors.push(err233);
}
errors++;
}
}
}
else {
const err234 = {instancePath:instancePath+"/json/vlm",schemaPath:"#/$defs/setup/properties/vlm/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema32.properties.vlm.type,parentSchema:schema32.properties.vlm,data:data220};
if(vErrors === null){
vErrors = [err234];
}
else {
vErrors.push(err234);
}
errors++;
}
}
if(data211.fields !== undefined){
let data222 = data211.fields;
if(Array.isArray(data222)){
const len29 = data222.length;
for(let i29=0; i29<len29; i29++){
let data223 = data222[i29];
if(typeof data223 !== "string"){
const err235 = {instancePath:instancePath+"/json/fields/" + i29,schemaPath:"#/$defs/setup/properties/fields/items/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema32.properties.fields.items.type,parentSchema:schema32.properties.fields.items,data:data223};
if(vErrors === null){
vErrors = [err235];
}
else {
vErrors.push(err235);
}
errors++;
}
}
}
else {
const err236 = {instancePath:instancePath+"/json/fields",schemaPath:"#/$defs/setup/properties/fields/type",keyword:"type",params:{type: "array"},message:"must be array",schema:schema32.properties.fields.type,parentSchema:schema32.properties.fields,data:data222};
if(vErrors === null){
vErrors = [err236];
}
else {
vErrors.push(err236);
}
errors++;
}
}
if(data211.chunk_token_num !== undefined){
let data224 = data211.chunk_token_num;
if(!((typeof data224 == "number") && (!(data224 % 1) && !isNaN(data224)))){
const err237 = {instancePath:instancePath+"/json/chunk_token_num",schemaPath:"#/$defs/setup/properties/chunk_token_num/type",keyword:"type",params:{type: "integer"},message:"must be integer",schema:schema32.properties.chunk_token_num.type,parentSchema:schema32.properties.chunk_token_num,data:data224};
if(vErrors === null){
vErrors = [err237];
}
else {
vErrors.push(err237);
}
errors++;
}
if(typeof data224 == "number"){
if(data224 < 1 || isNaN(data224)){
const err238 = {instancePath:instancePath+"/json/chunk_token_num",schemaPath:"#/$defs/setup/properties/chunk_token_num/minimum",keyword:"minimum",params:{comparison: ">=", limit: 1},message:"must be >= 1",schema:1,parentSchema:schema32.properties.chunk_token_num,data:data224};
if(vErrors === null){
vErrors = [err238];
}
else {
vErrors.push(err238);
}
errors++;
}
}
}
if(data211.delimiter !== undefined){
let data225 = data211.delimiter;
if(typeof data225 !== "string"){
const err239 = {instancePath:instancePath+"/json/delimiter",schemaPath:"#/$defs/setup/properties/delimiter/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema32.properties.delimiter.type,parentSchema:schema32.properties.delimiter,data:data225};
if(vErrors === null){
vErrors = [err239];
}
else {
vErrors.push(err239);
}
errors++;
}
}
}
else {
const err240 = {instancePath:instancePath+"/json",schemaPath:"#/$defs/setup/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema32.type,parentSchema:schema32,data:data211};
if(vErrors === null){
vErrors = [err240];
}
else {
vErrors.push(err240);
}
errors++;
}
}
}
else {
const err241 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema31.type,parentSchema:schema31,data};
if(vErrors === null){
vErrors = [err241];
}
else {
vErrors.push(err241);
}
errors++;
}
validate20.errors = vErrors;
return errors === 0;
}
validate20.evaluated = {"props":{"setups":true,"pdf":true,"spreadsheet":true,"doc":true,"docx":true,"markdown":true,"text&code":true,"html":true,"slides":true,"image":true,"email":true,"audio":true,"video":true,"epub":true,"json":true},"dynamicProps":false,"dynamicItems":false};

